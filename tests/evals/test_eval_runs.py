"""What the scripted server's known choices give over several runs and in the trace: only an
activation counts as a trigger, per-run precision and recall and their spread, pass counts per
eval, the transcript of a run, and the improve loop's figures."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from studio.evals.improve import improve_description, split_held_out
from studio.evals.report import EvalResult, pass_counts
from studio.evals.trace import transcript_messages
from studio.skills.checks.evalfiles import TriggerQuery, parse_evals
from tests.evals.test_eval_runner import EVALS, QUERIES, catalog, make_runner, report_for, root
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply

__all__ = ["root"]


async def test_a_tool_call_that_names_the_skill_without_activating_it_is_no_trigger(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("read_skill_file", {"skill": "demo", "path": "SKILL.md"})),
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        # A small model's call of the skill by name is repaired into its activation.
        calls(Call("demo", {})),
        calls(Call("activate_skill", {"skill": "demo"})),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(skills[0], skills, QUERIES, 1, report)
    assert report.trigger is not None
    assert [q.triggered for q in report.trigger.queries] == [False, False, True, True]
    assert [q.called for q in report.trigger.queries] == [
        "read_skill_file", "run_skill_script", "activate_skill", "activate_skill"]


async def test_several_runs_give_each_runs_figures_and_their_spread(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    activate = calls(Call("activate_skill", {"name": "demo"}))
    queries = (TriggerQuery("say hello to me", True), TriggerQuery("tidy my notes", False))
    # Query by query, run by run: run 1 is right twice; run 2 misses the greeting and picks the
    # skill for the notes.
    fake_ollama.script(activate, reply("Hi"), reply("No tool"), activate)
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(skills[0], skills, queries, 2, report)
    trigger = report.trigger
    assert trigger is not None
    data = trigger.to_json()
    assert data["per_run"] == [{"run": 1, "precision": 1.0, "recall": 1.0},
                               {"run": 2, "precision": 0.0, "recall": 0.0}]
    assert data["precision_over_runs"] == {"mean": 0.5, "stdev": 0.5, "runs": 2, "min": 0.0,
                                           "max": 1.0}
    assert data["recall_over_runs"]["mean"] == 0.5
    assert (data["precision"], data["recall"]) == (0.5, 0.5)


def test_pass_counts_per_eval_over_runs() -> None:
    def result(case: str, run: int, passed: bool) -> EvalResult:
        return EvalResult(case, run, (), 1, 0.1, "answered" if passed else "error")

    results = [result("1", 1, True), result("1", 2, False), result("1", 3, True),
               result("2", 1, False), result("2", 2, False), result("2", 3, False)]
    assert pass_counts(results) == {"1": (2, 3), "2": (0, 3)}


async def test_an_outcome_run_keeps_its_transcript_for_the_chat_cards(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("activate_skill", {"name": "demo"})),
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("The skill says: hello from the skill"),
        reply("PASS\nIt greets the user."),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).outcomes(
        skills[0], [skills[0]], parse_evals(EVALS).evals, 1, report, report.evals, "with")
    # Through JSON, as the cache keeps it.
    again = EvalResult.from_json(report.evals[0].to_json())
    messages = transcript_messages(again.trace)
    assert [m.role for m in messages] == ["user", "tool", "tool", "assistant"]
    assert messages[0].content == "Say hello"
    run = messages[2].record
    assert run is not None
    assert (run.tool, run.status, run.exit_code) == ("run_skill_script", "ok", 0)
    assert "hello from the skill" in run.output
    assert messages[3].content == "The skill says: hello from the skill"


@pytest.mark.parametrize("trace", [{}, {"transcript": "x"}, {"transcript": [1, {"role": "tool"},
                                                                           {"role": "bad"}]}])
def test_a_damaged_or_old_trace_gives_what_it_can(trace: dict[str, object]) -> None:
    assert transcript_messages(trace) == []


async def test_the_improve_loop_measures_each_variant_on_training_and_held_out_queries(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    queries = [TriggerQuery(f"please greet person {n}", True) for n in range(3)] + [
        TriggerQuery(f"tidy note {n}", False) for n in range(2)]
    train, held = split_held_out(queries)
    assert (len(train), len(held)) == (3, 2)
    activate = calls(Call("activate_skill", {"name": "demo"}))

    def choices(picks: list[bool]) -> list[object]:
        return [activate if pick else reply("no") for pick in picks]

    def picks(split: list[TriggerQuery], right: bool) -> list[bool]:
        return [q.should_trigger == right for q in split]

    fake_ollama.script(
        # The current description: every query gets it wrong.
        *choices(picks(train, False)), *choices(picks(held, False)),
        reply("- Greets people by name. Use when asked to greet someone.\n- Says hi."),
        # The first variant gets everything right, the second everything wrong.
        *choices(picks(train, True)), *choices(picks(held, True)),
        *choices(picks(train, False)), *choices(picks(held, False)),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    improvement = await improve_description(make_runner(fake_ollama, http_client, tmp_path),
                                            skills[0], skills, queries, report, count=2)
    current = improvement.current
    assert (current.train.recall, current.held_out.recall) == (0.0, 0.0)
    best, worst = improvement.variants
    assert best.description == "Greets people by name. Use when asked to greet someone."
    assert (best.train.precision, best.train.recall) == (1.0, 1.0)
    assert (best.held_out.precision, best.held_out.recall) == (1.0, 1.0)
    assert (worst.description, worst.held_out.recall) == ("Says hi.", 0.0)
    # Each variant was shown in the catalog in place of the description.
    assert "Greets people by name." in str(fake_ollama.chats[len(queries) + 1]["messages"])


async def test_the_improve_loop_stops_when_nothing_failed(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    queries = [TriggerQuery("greet me", True), TriggerQuery("tidy", False)]
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})), reply("no"))
    skills = catalog(root)
    improvement = await improve_description(make_runner(fake_ollama, http_client, tmp_path),
                                            skills[0], skills, queries, report_for(skills[0]))
    assert improvement.variants == [] and "Every training query" in improvement.note
    assert len(fake_ollama.chats) == 2


async def test_the_loop_goes_on_for_rounds_never_showing_held_out_queries_to_the_proposer(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    queries = [TriggerQuery(f"please greet person {n}", True) for n in range(3)] + [
        TriggerQuery(f"tidy note {n}", False) for n in range(2)]
    train, held = split_held_out(queries)
    activate = calls(Call("activate_skill", {"name": "demo"}))

    def choices(split: list[TriggerQuery], right: list[bool]) -> list[object]:
        return [activate if (q.should_trigger == ok) else reply("no")
                for q, ok in zip(split, right, strict=True)]

    all_wrong_train, all_wrong_held = [False] * len(train), [False] * len(held)
    fake_ollama.script(
        *choices(train, all_wrong_train), *choices(held, all_wrong_held),
        reply("- Greets people."),                        # round 1
        *choices(train, [True] * (len(train) - 1) + [False]), *choices(held, [True] * len(held)),
        reply("- Greets people by name, warmly."),        # round 2, from the best on training
        *choices(train, [True] * len(train)), *choices(held, all_wrong_held),
    )
    skills = catalog(root)
    improvement = await improve_description(make_runner(fake_ollama, http_client, tmp_path),
                                            skills[0], skills, queries, report_for(skills[0]), count=1)
    assert improvement.rounds == 2   # the second variant got every training query right: done
    proposals = [chat for chat in fake_ollama.chats if not chat.get("tools")]
    assert len(proposals) == 2
    second = proposals[1]["messages"][-1]["content"]
    assert "- 2 of 3: Greets people." in second
    for query in held:
        assert all(query.query not in chat["messages"][-1]["content"] for chat in proposals)
    # Ranked by the held-out queries, not the training ones.
    assert [v.description for v in improvement.variants] == [
        "Greets people.", "Greets people by name, warmly."]

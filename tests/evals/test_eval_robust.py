"""A model's unusable reply is a result, never a server failure: a trigger query answered with a
call of an unknown skill is "not triggered" with what it called, an eval whose turn ends in a model
error fails with that reason, and only the server's own failure ends the run, keeping what finished."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from studio.evals.cache import ResultCache
from studio.evals.runner import EvalError
from studio.skills.checks.evalfiles import parse_evals
from tests.evals.test_eval_runner import QUERIES, catalog, make_runner, report_for, root
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, error, reply


async def test_a_call_of_an_unknown_skill_is_not_triggered_and_says_what_it_called(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("activate_skill", {"name": "demo"})),
        calls(Call("activate_skill", {"name": "weather-now"})),   # not in the catalog
        reply("2 + 2 is 4."),
        calls(Call("activate_skill", {"name": "other"})),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(skills[0], skills, QUERIES, 1, report)
    trigger = report.trigger
    assert trigger is not None
    assert [q.triggered for q in trigger.queries] == [True, False, False, False]
    assert trigger.queries[1].choice == "activate_skill(weather-now)"
    assert trigger.queries[3].choice == "activate_skill(other)"
    assert (trigger.precision, trigger.recall) == (1.0, 0.5)
    assert len(fake_ollama.chats) == 4


async def test_a_reply_unusable_even_constrained_is_a_result_and_the_rest_still_run(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("activate_skill", {"name": "demo"})),
        reply("I would use activate_skill here"),   # a call in its text that cannot be read
        reply('{"tool": "activate_skill", "arguments": {"na'),   # constrained, and still cut
        reply("4"),
        reply("Your notes look fine."),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(skills[0], skills, QUERIES, 1, report)
    trigger = report.trigger
    assert trigger is not None
    assert len(trigger.queries) == 4
    assert trigger.queries[1].error.startswith("The model's reply")
    assert not trigger.queries[1].triggered
    assert trigger.recall == 0.5


async def test_a_server_failure_ends_the_run_and_keeps_what_finished(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.script(
        calls(Call("activate_skill", {"name": "demo"})),
        reply("Hello!"),
        error(500, {"error": "out of memory"}),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    cache = ResultCache(tmp_path / "cache")
    runner = make_runner(fake_ollama, http_client, tmp_path, cache)
    with pytest.raises(EvalError, match="HTTP 500"):
        await runner.triggers(skills[0], skills, QUERIES, 1, report)
    assert report.trigger is not None and len(report.trigger.queries) == 2
    fake_ollama.script(reply("4"), reply("Tidy."))
    again = report_for(skills[0])
    await runner.triggers(skills[0], skills, QUERIES, 1, again)
    assert again.cached == 2
    assert again.trigger is not None and len(again.trigger.queries) == 4


async def test_an_eval_whose_turn_ends_in_a_model_error_fails_with_that_reason(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    cases = parse_evals({"skill_name": "demo", "evals": [
        {"id": 1, "prompt": "Say hello", "expected_output": "hi",
         "expectations": [{"contains": "hello"}, "The answer greets the user"]},
        {"id": 2, "prompt": "Say hi", "expected_output": "hi", "expectations": [{"contains": "hi"}]},
    ]}, "evals.json").evals
    fake_ollama.script(
        reply("I will run activate_skill"),
        reply('{"tool": "activate_skill", "argu'),
        reply("hi there"),
    )
    skills = catalog(root)
    report = report_for(skills[0])
    cache = ResultCache(tmp_path / "cache")
    await make_runner(fake_ollama, http_client, tmp_path, cache).outcomes(
        skills[0], [skills[0]], cases, 1, report, report.evals, "with")
    first, second = report.evals
    assert not first.passed and first.outcome == "error"
    assert all(not v.passed and v.reason.startswith("the model's turn ended in an error")
               for v in first.expectations)
    assert second.passed
    assert len(fake_ollama.chats) == 3   # the grader is never asked about a failed turn


async def test_a_server_failure_in_an_eval_ends_the_run(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    cases = parse_evals({"skill_name": "demo", "evals": [
        {"id": 1, "prompt": "Say hi", "expected_output": "hi", "expectations": [{"contains": "hi"}]},
        {"id": 2, "prompt": "Say hi", "expected_output": "hi", "expectations": [{"contains": "hi"}]},
    ]}, "evals.json").evals
    fake_ollama.script(reply("hi"), error(503, {"error": "loading"}))
    skills = catalog(root)
    report = report_for(skills[0])
    with pytest.raises(EvalError, match="HTTP 503"):
        await make_runner(fake_ollama, http_client, tmp_path).outcomes(
            skills[0], [skills[0]], cases, 1, report, report.evals, "with")
    assert [r.id for r in report.evals] == ["1"]


__all__ = ["root"]

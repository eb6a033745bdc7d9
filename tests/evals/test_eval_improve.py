"""Description variants from trigger failures, a stable held-out split, and a variant re-run on
the held-out queries against the scripted server."""

from __future__ import annotations

from pathlib import Path

import httpx

from studio.agent.approval import AutoApprover
from studio.agent.session import SessionFactory, SessionSettings
from studio.evals.improve import (
    propose_descriptions,
    read_proposals,
    split_held_out,
    with_description,
)
from studio.evals.report import QueryResult, SkillReport
from studio.evals.runner import EvalRunner
from studio.llm import make_client
from studio.policy import AuditLog, Grants
from studio.skills.checks.evalfiles import TriggerQuery
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

QUERIES = [TriggerQuery(f"please greet person {n}", True) for n in range(5)] + [
    TriggerQuery(f"tidy note {n}", False) for n in range(5)]


def test_the_split_holds_out_a_share_of_each_kind_and_is_stable() -> None:
    train, held = split_held_out(QUERIES)
    assert sorted(q.should_trigger for q in held) == [False, False, True, True]
    assert len(train) == 6 and not set(train) & set(held)
    assert split_held_out(list(reversed(QUERIES))) == (train, held)
    assert split_held_out(QUERIES[:1]) == (QUERIES[:1], [])


def test_proposals_are_the_new_list_items_of_the_answer() -> None:
    text = ("Here you go:\n- Greets people. Use when asked to greet.\n2. Old one\n"
            "- Greets people. Use when asked to greet.\n* " + "x" * 2000 + "\n- Third\n- Fourth")
    assert read_proposals(text, "Old one", 2) == ["Greets people. Use when asked to greet.", "Third"]


async def test_a_proposed_variant_is_rerun_on_the_held_out_queries(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tmp_path: Path
) -> None:
    write_skill(tmp_path / "skills", "demo", frontmatter("demo", "Does things. Use when needed."))
    [skill] = scan_root(SkillRoot(tmp_path / "skills")).skills
    fake_ollama.script(reply("- Greets people by name. Use when the user asks for a greeting.\n"))
    client = make_client("ollama", fake_ollama.url, http_client)
    failures = [QueryResult("please greet person 1", True, 1, False)]
    [variant] = await propose_descriptions(client, TOOL_MODEL, skill, failures, count=1)
    assert variant.startswith("Greets people by name")
    assert "please greet person 1" in fake_ollama.chats[0]["messages"][0]["content"]

    _, held = split_held_out(QUERIES)
    fake_ollama.script(*(calls(Call("activate_skill", {"name": "demo"})) if q.should_trigger
                         else reply("no") for q in held))
    factory = SessionFactory(AutoApprover(), http_client, grants=Grants(tmp_path / "g.yaml"),
                             audit=AuditLog(tmp_path / "a.jsonl"), home=tmp_path / "home")
    runner = EvalRunner(factory, SessionSettings(url=fake_ollama.url, model=TOOL_MODEL))
    improved = with_description(skill, variant)
    report = SkillReport("demo", "h", "m")
    await runner.triggers(improved, [improved], held, 1, report)
    assert report.trigger is not None
    assert (report.trigger.precision, report.trigger.recall) == (1.0, 1.0)
    assert variant in fake_ollama.chats[1]["messages"][0]["content"]

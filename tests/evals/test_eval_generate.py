"""Trigger queries written by the model: half that should load the skill, half near misses from
its neighbours; reviewed before anything is saved, and added to what evals/triggers.json holds."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from studio.commands.eval_generate import chosen
from studio.evals.generate import add_queries, generate_triggers, neighbours_of, read_queries
from studio.llm.ollama import OllamaClient
from studio.skills.checks.evalfiles import TriggerQuery, read_triggers
from studio.skills.scan.targets import scan
from tests.commands.test_eval_command import finish, studio
from tests.fakes.fixtures import TOOL_MODEL, fake_ollama
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill

__all__ = ["fake_ollama"]


def library(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    write_skill(root, "invoice-total", frontmatter(
        "invoice-total", "Adds up invoice lines and checks the VAT. Use for invoices."))
    write_skill(root, "receipt-scan", frontmatter(
        "receipt-scan", "Reads totals off photos of shop receipts. Use for receipts."))
    write_skill(root, "tide-tables", frontmatter(
        "tide-tables", "Reads tide tables for a harbour. Use for tides."))
    return root


def test_list_items_are_read_and_prose_is_not() -> None:
    text = "Here you go:\n- add up invoice 12\n2. check the VAT on this bill\n- add up invoice 12\nThanks"
    assert read_queries(text, 10) == ["add up invoice 12", "check the VAT on this bill"]


def test_the_closest_neighbours_come_first(tmp_path: Path) -> None:
    skills = scan([library(tmp_path)]).skills
    target = next(s for s in skills if s.name == "invoice-total")
    assert neighbours_of(target, skills)[0].name == "receipt-scan"


async def test_half_should_half_near_misses_and_nothing_twice(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tmp_path: Path
) -> None:
    skills = scan([library(tmp_path)]).skills
    target = next(s for s in skills if s.name == "invoice-total")
    fake_ollama.script(reply("- total this invoice\n- is the VAT right on invoice 7?\n- sum the lines"),
                       reply("- read my shop receipt\n- when is high tide\n- what is VAT anyway"))
    client = OllamaClient(fake_ollama.url, http_client)
    queries = await generate_triggers(client, TOOL_MODEL, target, skills, 6,
                                      existing=[TriggerQuery("Sum the lines", True)])
    assert [(q.query, q.should_trigger) for q in queries] == [
        ("total this invoice", True), ("is the VAT right on invoice 7?", True),
        ("read my shop receipt", False), ("when is high tide", False), ("what is VAT anyway", False)]
    near = fake_ollama.chats[1]["messages"][-1]["content"]
    assert "receipt-scan" in near and "NOT" in near


def test_the_review_answer_is_read() -> None:
    assert chosen("", 4) == [0, 1, 2, 3]
    assert chosen("none", 4) == []
    assert chosen("2, 4", 4) == [0, 2]
    assert chosen("9", 4) is None and chosen("two", 4) is None


def test_kept_queries_join_the_file_and_nothing_is_lost(tmp_path: Path) -> None:
    skills = scan([library(tmp_path)]).skills
    target = next(s for s in skills if s.name == "invoice-total")
    (target.directory / "evals").mkdir()
    (target.directory / "evals" / "triggers.json").write_text(json.dumps(
        [{"query": "Total this invoice", "should_trigger": True, "note": "mine"}]))
    added = add_queries(target.directory, [TriggerQuery("total this invoice", True),
                                           TriggerQuery("tide at 3?", False)])
    assert added == 1
    data = json.loads((target.directory / "evals" / "triggers.json").read_text())
    assert data[0] == {"query": "Total this invoice", "should_trigger": True, "note": "mine"}
    assert read_triggers(target.directory) == (TriggerQuery("Total this invoice", True),
                                               TriggerQuery("tide at 3?", False))


def test_studio_eval_generate_triggers_saves_only_with_write(fake_ollama: FakeOllama,
                                                              tmp_path: Path) -> None:
    target = library(tmp_path) / "invoice-total"
    fake_ollama.script(reply("- total this invoice"), reply("- when is high tide"))
    code, out, err = finish(studio(str(target), "--generate-triggers", "--count", "2",
                                   "--url", fake_ollama.url, "--model", TOOL_MODEL))
    assert code == 0, err
    assert "Nothing saved" in out and not (target / "evals" / "triggers.json").exists()
    fake_ollama.script(reply("- total this invoice"), reply("- when is high tide"))
    code, out, err = finish(studio(str(target), "--generate-triggers", "--count", "2", "--write",
                                   "--url", fake_ollama.url, "--model", TOOL_MODEL))
    assert code == 0, err
    assert read_triggers(target) == (TriggerQuery("total this invoice", True),
                                     TriggerQuery("when is high tide", False))

""""Save chat as skill" through scripted model servers: the request is held to the draft's schema,
the answer becomes a valid SKILL.md with a repaired name, and an unusable answer says why."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import yaml

from studio.agent.chat_skill import (
    DRAFT_SCHEMA,
    DraftUnusable,
    draft_from_chat,
    make_draft,
    transcript,
)
from studio.agent.server import ModelServer
from studio.agent.session import SessionFactory, SessionSettings
from studio.llm import Message, ToolCall, make_client
from studio.skills.checks.validate import validate_skill
from studio.skills.parse import parse_skill
from tests.fakes.approvers import RecordingApprover
from tests.fakes.fixtures import OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Text, Turn, reply

NOW = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)
CONVERSATION = [
    Message("system", "the catalog"),
    Message("user", "Profile data.csv for me"),
    Message("assistant", "", [ToolCall("c1", "run_skill_script",
                                       {"skill": "csv", "command": "python profile.py data.csv"})]),
    Message("tool", "rows: 120\ncolumns: 4", tool_name="run_skill_script", tool_call_id="c1"),
    Message("assistant", "The file has 120 rows and 4 columns."),
]


def _answer(**fields: object) -> str:
    return json.dumps(fields)


def _fields(text: str) -> dict[str, object]:
    return yaml.safe_load(text.split("---\n")[1])  # type: ignore[no-any-return]


def _errors(text: str, name: str) -> list[str]:
    skill = parse_skill(text.encode(), Path("/x") / name / "SKILL.md", directory=Path("/x") / name)
    return [d.code for d in validate_skill(skill).diagnostics if d.severity.value == "error"]


async def test_the_draft_is_asked_under_a_schema_and_made_valid(
        fake_ollama: FakeOllama, http_client: httpx.AsyncClient) -> None:
    fake_ollama.script(reply(_answer(
        name="CSV Profiler!", description="Profiles a CSV file. Use when asked about a CSV's shape.",
        body="# Profile a CSV\n\n1. Run `python profile.py FILE`.\n")))
    client = make_client("ollama", fake_ollama.url, http_client)

    draft = await draft_from_chat(client, TOOL_MODEL, CONVERSATION, clock=NOW)

    request = fake_ollama.chats[-1]
    assert request["format"] == DRAFT_SCHEMA
    assert "tools" not in request
    shown = request["messages"][-1]["content"]
    assert "Profile data.csv" in shown and "rows: 120" in shown and "run_skill_script" in shown
    assert "the catalog" not in shown
    assert draft.name == "csv-profiler"
    assert draft.renamed_from == "CSV Profiler!"
    fields = _fields(draft.text)
    assert fields["name"] == "csv-profiler"
    assert fields["metadata"] == {"created-by": TOOL_MODEL, "created-at": "2026-11-23T09:30:00+00:00"}
    assert "1. Run `python profile.py FILE`." in draft.text
    assert _errors(draft.text, draft.name) == []


async def test_a_slightly_broken_answer_is_mended_and_a_missing_name_made(
        fake_openai: FakeOpenAI, http_client: httpx.AsyncClient) -> None:
    fake_openai.script(reply("Here it is: {'description': 'Greets people. Use when asked to say "
                             "hello.', 'body': '# Greet\\n\\nSay hello.',"))
    client = make_client("openai", fake_openai.url, http_client)

    draft = await draft_from_chat(client, OPENAI_MODEL, CONVERSATION, clock=NOW)

    request = fake_openai.chats[-1]
    assert request["response_format"]["json_schema"]["schema"] == DRAFT_SCHEMA
    assert draft.name == "greets-people"
    assert draft.renamed_from is None
    assert _errors(draft.text, draft.name) == []


@pytest.mark.parametrize(("answer", "said"), [
    ("I cannot do that.", "it said: “I cannot do that.”"),
    ("", "its answer was empty"),
    ('{oops: yes}', "not a JSON object"),
    (_answer(name="x", description="Does x. Use when x.", body="  "), "no body"),
    (_answer(name="x", body="# X"), "no description"),
])
async def test_an_unusable_answer_says_why(
        fake_ollama: FakeOllama, http_client: httpx.AsyncClient, answer: str, said: str) -> None:
    fake_ollama.script(reply(answer) if answer else Turn([Text("")]))
    client = make_client("ollama", fake_ollama.url, http_client)

    with pytest.raises(DraftUnusable) as caught:
        await draft_from_chat(client, TOOL_MODEL, CONVERSATION, clock=NOW)

    assert said in str(caught.value)
    assert "Try again" in str(caught.value)


def test_a_draft_is_cut_to_the_spec_limits() -> None:
    draft = make_draft({"name": "--Way Too Long " + "x" * 80, "description": "Does x. " * 300,
                        "body": "# X"}, author="m", when="now")

    fields = _fields(draft.text)
    assert len(draft.name) <= 64 and draft.name.startswith("way-too-long-x")
    assert isinstance(fields["description"], str) and len(fields["description"]) <= 1024
    assert _errors(draft.text, draft.name) == []


async def test_an_empty_chat_is_refused_without_asking(
        fake_ollama: FakeOllama, http_client: httpx.AsyncClient) -> None:
    client = make_client("ollama", fake_ollama.url, http_client)

    with pytest.raises(DraftUnusable, match="nothing in it"):
        await draft_from_chat(client, TOOL_MODEL, [Message("system", "the catalog")])

    assert fake_ollama.chats == []


def test_a_long_chat_is_cut_from_its_start() -> None:
    long = [Message("user", "first " + "x" * 20_000), Message("user", "the last request")]

    shown = transcript(long)

    assert shown.startswith("[...]") and shown.endswith("the last request")
    assert "first" not in shown


async def test_the_session_factory_drafts_with_the_chat_model(
        fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tmp_path: Path) -> None:
    fake_ollama.script(reply(_answer(name="csv-profiler", description="Profiles CSV files. Use "
                                     "when asked about a CSV.", body="# Profile\n\n1. Run it.")))
    factory = SessionFactory(RecordingApprover(), http_client, server=ModelServer(http_client))
    settings = SessionSettings(backend="ollama", url=fake_ollama.url, model=TOOL_MODEL)

    draft = await factory.draft_skill(settings, CONVERSATION)

    assert fake_ollama.chats[-1]["model"] == TOOL_MODEL
    assert draft.name == "csv-profiler"
    assert not list(tmp_path.iterdir())

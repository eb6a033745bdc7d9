"""A chat session kept within a small model's context, against the scripted Ollama server: the
catalog fitted to the context it reports, the left-out skills named, the oldest turns trimmed, a
turn that cannot fit ended with a message, and a call naming a skill shown as `activate_skill`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import ChatNotice, Done, Error, Event, ToolCallRequested, ToolFinished
from studio.agent.session import ChatSession, SessionFactory, SessionSettings
from studio.llm import Message
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.summary import SkillSummary
from tests.agent.test_prompt_budget import QUESTION, _library
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

CONTEXT = 4096
NEEDED = "unit-converter"
# Characters per token when measuring what the fake received: the ratio the studio's estimate
# promises (`estimate_tokens`, 3.5 for ASCII), counted here on the request as sent. A stricter ratio
# made the measure depend on the machine: the studio fills the context up to its own estimate, and
# the slack a whole turn leaves depends on the system prompt, which names the skill's path (the
# temporary folder's length).
CHARS_PER_TOKEN = 3.5


@pytest.fixture
def library(tmp_path: Path) -> list[SkillSummary]:
    """400 skills; the one a unit conversion needs is on disk, the others are only summaries."""
    root = tmp_path / "project" / "skills"
    write_skill(root, NEEDED, frontmatter(
        NEEDED, "Convert quantities between units of length, mass, volume and temperature, e.g. "
        "miles to kilometres. Use when the user asks to convert a measurement.")
        + "Multiply miles by 1.609 to get kilometres.\n")
    real = scan_root(SkillRoot(root)).skills
    return [real[0] if s.name == NEEDED else s for s in _library(400)]


@pytest.fixture
def small_model(fake_ollama: FakeOllama) -> FakeOllama:
    fake_ollama.context_lengths = {TOOL_MODEL: CONTEXT}
    return fake_ollama


def session_for(server: FakeOllama, http: httpx.AsyncClient, skills: list[SkillSummary],
                tmp_path: Path, history: list[Message] | None = None, **settings: Any) -> ChatSession:
    factory = SessionFactory(AutoApprover(), http, grants=Grants(tmp_path / "grants.yaml"),
                             audit=AuditLog(tmp_path / "audit.jsonl"), home=tmp_path / "home")
    chosen = SessionSettings(url=server.url, model=TOOL_MODEL, workspace=tmp_path / "project",
                             **settings)
    return factory.session(chosen, skills, history=history or [])


def measured_tokens(body: dict[str, Any]) -> int:
    """The request's size as the fake received it: every message's text and the tools' JSON."""
    text = "".join(m.get("content", "") for m in body["messages"]) + json.dumps(body.get("tools", []))
    return round(len(text) / CHARS_PER_TOKEN) + 4 * len(body["messages"])


def catalog_names(body: dict[str, Any]) -> set[str]:
    system = body["messages"][0]["content"]
    return {part.split("</name>")[0] for part in system.split("<name>")[1:]}


async def run(session: ChatSession, prompt: str) -> list[Event]:
    return [event async for event in session.turn(prompt)]


async def test_400_skills_and_a_4096_token_model_first_request_fits_and_holds_the_needed_skill(
    small_model: FakeOllama, http_client: httpx.AsyncClient, library: list[SkillSummary], tmp_path: Path
) -> None:
    small_model.script(calls(Call("activate_skill", {"name": NEEDED})), reply("42.2 km"))
    events = await run(session_for(small_model, http_client, library, tmp_path), QUESTION)
    first = small_model.chats[0]
    assert measured_tokens(first) <= CONTEXT - 512, measured_tokens(first)
    assert first["options"]["num_ctx"] == CONTEXT
    included = catalog_names(first)
    assert NEEDED in included and 5 < len(included) < 100
    enum = first["tools"][0]["function"]["parameters"]["properties"]["name"]["enum"]
    assert set(enum) == included
    notices = [e.message for e in events if isinstance(e, ChatNotice)]
    assert any(f"{400 - len(included)} skills did not fit" in n and "pin it" in n for n in notices)
    assert [e.status for e in events if isinstance(e, ToolFinished)] == ["ok"]
    assert events[-1] == Done("answered", "42.2 km", 2, events[-1].usage,  # type: ignore[union-attr]
                            model=TOOL_MODEL)


async def test_without_a_known_context_every_skill_is_offered(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, library: list[SkillSummary], tmp_path: Path
) -> None:
    fake_ollama.script(reply("hi"))
    events = await run(session_for(fake_ollama, http_client, library, tmp_path), QUESTION)
    assert len(catalog_names(fake_ollama.chats[0])) == 400
    assert not any(isinstance(e, ChatNotice) for e in events)


async def test_pinned_skills_and_skills_named_in_the_message_stay_in_the_catalog(
    small_model: FakeOllama, http_client: httpx.AsyncClient, library: list[SkillSummary], tmp_path: Path
) -> None:
    pinned, named = library[250].name, library[350].name
    assert pinned and named
    small_model.script(reply("a"), reply("b"))
    session = session_for(small_model, http_client, library, tmp_path, keep=(pinned,))
    await run(session, QUESTION)
    assert pinned in catalog_names(small_model.chats[0])
    assert named not in catalog_names(small_model.chats[0])
    await run(session, f"now try {named} please")
    assert {pinned, named} <= catalog_names(small_model.chats[1])
    assert named not in session.left_out


async def test_the_oldest_turns_are_left_out_when_the_history_outgrows_the_context(
    small_model: FakeOllama, http_client: httpx.AsyncClient, library: list[SkillSummary], tmp_path: Path
) -> None:
    history: list[Message] = []
    for number in range(12):
        history += [Message("user", f"question {number} " + "words " * 300),
                    Message("assistant", f"answer {number} " + "more " * 300)]
    small_model.script(reply("ok"))
    session = session_for(small_model, http_client, library, tmp_path, history=history)
    events = await run(session, QUESTION)
    sent = small_model.chats[0]
    assert measured_tokens(sent) <= CONTEXT - 512
    contents = [m["content"] for m in sent["messages"]]
    assert contents[0].startswith("You are a helpful assistant") and contents[-1] == QUESTION
    assert "question 11 " in contents[-3] and not any(c.startswith("question 0 ") for c in contents)
    assert any(isinstance(e, ChatNotice) and "oldest" in e.message and "turns were left out" in e.message
               for e in events)
    assert [m.content for m in session.messages[1:-2]] == [m.content for m in history], (
        "the conversation keeps (and the studio saves) every turn")


async def test_a_message_that_cannot_fit_ends_the_turn_with_a_message_and_sends_nothing(
    small_model: FakeOllama, http_client: httpx.AsyncClient, library: list[SkillSummary], tmp_path: Path
) -> None:
    session = session_for(small_model, http_client, library, tmp_path)
    events = await run(session, "convert this: " + "12 miles, " * 2000)
    errors = [e.message for e in events if isinstance(e, Error)]
    assert len(errors) == 1 and f"context of {CONTEXT:,} tokens" in errors[0]
    assert "Shorten the message" in errors[0] and "pick a model with a longer context" in errors[0]
    assert isinstance(events[-1], Done) and events[-1].reason == "error"
    assert small_model.chats == []


async def test_a_call_naming_a_skill_as_the_tool_is_shown_and_run_as_activate_skill(
    small_model: FakeOllama, http_client: httpx.AsyncClient, library: list[SkillSummary], tmp_path: Path
) -> None:
    small_model.script(calls(Call(NEEDED, {"value": "26.2 miles"})), reply("42.2 km"))
    events = await run(session_for(small_model, http_client, library, tmp_path), QUESTION)
    requested = [e for e in events if isinstance(e, ToolCallRequested)]
    assert [(e.tool, e.skill, e.arguments, e.constrained) for e in requested] == [
        ("activate_skill", NEEDED, {"name": NEEDED}, False)]
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert finished[0].status == "ok" and "Multiply miles by 1.609" in finished[0].result
    assert len(small_model.chats) == 2, "a repaired call is run, not asked again"
    echoed = small_model.chats[1]["messages"][-2]["tool_calls"][0]["function"]
    assert echoed == {"name": "activate_skill", "arguments": {"name": NEEDED}}

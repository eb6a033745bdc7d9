"""Invoking a skill by name in the core chat session, and Claude Code's two invocation fields:
`disable-model-invocation` (the model may not load the skill: not in its catalog, and
activate_skill refuses) and `user-invocable: false` (not offered for /NAME)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import ChatNotice, ToolFinished
from studio.agent.session import ChatSession, SessionFactory, SessionSettings
from studio.agent.tools import ToolError
from studio.llm import Message
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import write_skill

# Claude Code's documented skill with side effects: only the user runs it.
DEPLOY = """---
name: deploy
description: Deploy the application to production. Use when asked to deploy.
disable-model-invocation: true
arguments: environment
---
Deploy to $environment from ${CLAUDE_SKILL_DIR} (all: $ARGUMENTS).
"""
# Its background-knowledge example: only the model loads it.
LEGACY = """---
name: legacy-system-context
description: Context about the legacy authentication system. Use when touching auth.
user-invocable: false
---
The legacy system signs tokens with HS256.
"""
PLAIN = """---
name: notes
description: Tidies notes. Use when notes are messy.
---
Tidy the notes.
"""


@pytest.fixture
def session(tmp_path: Path, fake_ollama: FakeOllama, http_client: httpx.AsyncClient) -> ChatSession:
    root = tmp_path / "skills"
    for name, text in (("deploy", DEPLOY), ("legacy-system-context", LEGACY), ("notes", PLAIN)):
        write_skill(root, name, text)
    skills = scan_root(SkillRoot(root.resolve())).skills
    factory = SessionFactory(AutoApprover(), http_client, grants=Grants(tmp_path / "g.yaml"),
                             audit=AuditLog(tmp_path / "a.jsonl"), home=tmp_path / "home")
    return factory.session(SessionSettings(url=fake_ollama.url, model=TOOL_MODEL,
                                           workspace=tmp_path), skills)


async def test_a_skill_the_model_may_not_load_is_out_of_its_catalog_and_refused(
        session: ChatSession, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "deploy"})), reply("I cannot."),
                       reply("I cannot."))
    events = [event async for event in session.turn("deploy it")]
    system = fake_ollama.chats[0]["messages"][0]["content"]
    assert "notes" in system and "legacy-system-context" in system
    assert "deploy" not in system.split("<available_skills>")[-1]
    # The call names a skill the tools do not offer: the loop turns it down before it runs.
    assert not [e for e in events if isinstance(e, ToolFinished)]
    assert "there is no skill 'deploy'" in events[0].message  # type: ignore[union-attr]
    assert all("Deploy to" not in str(chat["messages"]) for chat in fake_ollama.chats)
    # Had it got through, the tool itself refuses.
    with pytest.raises(ToolError, match="disable-model-invocation"):
        session.executor.toolbox.activate("deploy")


async def test_slash_name_loads_the_skill_with_its_arguments_put_in(
        session: ChatSession, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    fake_ollama.script(reply("Deployed."))
    events = [event async for event in session.turn("/deploy staging")]
    sent = fake_ollama.chats[0]["messages"][-1]
    directory = tmp_path.resolve() / "skills" / "deploy"
    assert sent["role"] == "user" and sent["content"].startswith("/deploy staging\n")
    assert f"Deploy to staging from {directory} (all: staging)." in sent["content"]
    assert [e.message for e in events if isinstance(e, ChatNotice)] == [
        "Loaded the skill deploy as you asked (staging)."]
    # The next turn neither expands it twice nor refuses the model the skill it now has.
    fake_ollama.script(calls(Call("activate_skill", {"name": "deploy"})), reply("Done."))
    events = [event async for event in session.turn("again")]
    assert sum("Deploy to staging" in m.content for m in session.messages) == 1
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "ok"


async def test_dollar_name_works_too_and_a_history_from_a_front_end_is_expanded(
        session: ChatSession, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Tidied."))
    session.set_history([Message("user", "$notes please")])
    [_ async for _ in session.turn()]
    assert "Tidy the notes.\n\nARGUMENTS: please" in fake_ollama.chats[0]["messages"][-1]["content"]


async def test_a_skill_that_is_not_user_invocable_is_sent_as_typed(
        session: ChatSession, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(reply("Sure."))
    events = [event async for event in session.turn("/legacy-system-context")]
    assert fake_ollama.chats[0]["messages"][-1]["content"] == "/legacy-system-context"
    [notice] = [e.message for e in events if isinstance(e, ChatNotice)]
    assert "user-invocable: false" in notice
    assert [name for name, _ in session.invocable()] == ["deploy", "notes"]

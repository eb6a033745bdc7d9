"""Skills run as their client would, against the scripted Ollama server: `model:` switches the
chat's model, `context: fork` and `fork_with_context` run a sub-agent whose answer is the tool's
result, `agent:` runs the fork as a saved agent, and forks of forks stop at a depth limit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.agents import AgentSpec, AgentStore
from studio.agent.approval import Approval, ApprovalRequest, Approver, AutoApprover
from studio.agent.events import (
    ChatNotice,
    Done,
    Event,
    ForkStarted,
    Nested,
    TextDelta,
    ToolFinished,
)
from studio.agent.session import ChatSession, SessionFactory, SessionSettings
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OLLAMA_MODELS, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, Hang, Text, Turn, calls, reply
from tests.skills.helpers import frontmatter, write_skill

OTHER_MODEL = "other:1b"
SKILLS = {
    "switcher": f"model: {OTHER_MODEL}\n",
    "absent": "model: absent:7b\n",
    "forker": "context: fork\n",
    "sharer": "context: fork_with_context\n",
    "helped": "context: fork\nagent: helper\n",
    "stranger": "context: fork\nagent: nobody\n",
    "owned": "context: fork\nagent: owner\n",
    "lost": "context: fork\nagent: lost\n",
    "runner": "context: fork\n",
}


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    fake = FakeOllama({**OLLAMA_MODELS, OTHER_MODEL: ["completion", "tools"]})
    fake.start()
    yield fake
    fake.stop()


def make_session(tmp_path: Path, server: FakeOllama, http: httpx.AsyncClient,
                 approver: Approver | None = None) -> ChatSession:
    root = tmp_path / "skills"
    for name, extra in SKILLS.items():
        write_skill(root, name, frontmatter(name, extra=extra) + f"BODY-OF-{name}\n",
                    {"scripts/hello.py": "print('hello')\n"})
    store = AgentStore(tmp_path / "agents")
    store.save(AgentSpec("helper", OTHER_MODEL, system="You are the helper.",
                         parameters={"temperature": 0.1}))
    write_skill(tmp_path / "agent-skills", "agent-only", frontmatter("agent-only"))
    # The agent's skills: one by its absolute path, one relative to the workspace.
    store.save(AgentSpec("owner", system="You own skills.",
                         skills=(str(tmp_path / "agent-skills" / "agent-only"), "skills/runner")))
    store.save(AgentSpec("lost", skills=("no-such-folder",)))
    factory = SessionFactory(approver or AutoApprover(), http, grants=Grants(tmp_path / "grants.yaml"),
                             audit=AuditLog(tmp_path / "audit.jsonl"), home=tmp_path / "home",
                             agents=store)
    settings = SessionSettings(url=server.url, model=TOOL_MODEL, workspace=tmp_path)
    return factory.session(settings, scan_root(SkillRoot(root)).skills)


def activate(name: str, task: str | None = None, call_id: str = "c1") -> Turn:
    arguments: dict[str, Any] = {"name": name} | ({"task": task} if task else {})
    return calls(Call("activate_skill", arguments, id=call_id))


async def run(session: ChatSession, prompt: str) -> list[Event]:
    return [event async for event in session.turn(prompt)]


def contents(chat: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in chat["messages"])


async def test_model_switches_the_chats_next_requests(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("switcher"), reply("answered"), reply("again"))
    session = make_session(tmp_path, server, http_client)
    events = await run(session, "hi")
    await run(session, "more")
    assert [chat["model"] for chat in server.chats] == [TOOL_MODEL, OTHER_MODEL, OTHER_MODEL]
    assert any(isinstance(e, ChatNotice) and f"come from {OTHER_MODEL}" in e.message for e in events)


async def test_a_model_the_server_lacks_keeps_the_current_one_with_a_notice(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("absent"), reply("answered"))
    events = await run(make_session(tmp_path, server, http_client), "hi")
    assert [chat["model"] for chat in server.chats] == [TOOL_MODEL, TOOL_MODEL]
    assert any(isinstance(e, ChatNotice) and "does not have" in e.message for e in events)


async def test_a_fork_starts_from_the_skill_and_its_answer_returns_to_the_parent(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("forker", "count the rows"), reply("FORK-ANSWER"), reply("final"))
    events = await run(make_session(tmp_path, server, http_client), "PARENT-PROMPT")
    parent, fork, after = server.chats
    assert "PARENT-PROMPT" in contents(parent)
    assert "BODY-OF-forker" in contents(fork) and "count the rows" in contents(fork)
    assert "PARENT-PROMPT" not in contents(fork)
    assert [m["role"] for m in fork["messages"]] == ["user"]
    assert after["messages"][-1]["role"] == "tool"
    assert after["messages"][-1]["content"] == "FORK-ANSWER"
    nested = [e for e in events if isinstance(e, Nested)]
    assert nested and all(e.call_id == "c1" and e.depth == 1 for e in nested)
    assert [e.event.text for e in nested if isinstance(e.event, TextDelta)] == ["FORK-ANSWER"]
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert (finished.status, finished.result) == ("ok", "FORK-ANSWER")
    assert isinstance(events[-1], Done) and events[-1].text == "final"


async def test_fork_with_context_starts_from_a_copy_of_the_conversation(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("sharer"), reply("FORK-ANSWER"), reply("final"))
    session = make_session(tmp_path, server, http_client)
    await run(session, "PARENT-PROMPT")
    fork = server.chats[1]
    assert "PARENT-PROMPT" in contents(fork) and "BODY-OF-sharer" in contents(fork)
    # The call that started the fork has no result yet, so the copy leaves it out.
    assert not any(m.get("tool_calls") for m in fork["messages"])
    # The parent's own conversation is not changed by the fork's turns.
    assert [m.role for m in session.messages] == ["system", "user", "assistant", "tool", "assistant"]


async def test_a_named_agent_runs_the_fork(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("helped"), reply("FORK-ANSWER"), reply("final"))
    await run(make_session(tmp_path, server, http_client), "hi")
    fork = server.chats[1]
    assert fork["model"] == OTHER_MODEL
    assert fork["messages"][0] == {"role": "system", "content": "You are the helper."}
    assert fork["options"]["temperature"] == 0.1


async def test_an_unknown_agent_is_a_clear_error_result(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("stranger"), reply("final"))
    events = await run(make_session(tmp_path, server, http_client), "hi")
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "error" and "no agent named 'nobody'" in finished.result
    assert "helper" in finished.result
    assert len(server.chats) == 2


async def test_forks_of_forks_stop_at_the_depth_limit(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(
        activate("forker", call_id="d0"), activate("forker", call_id="d1"),
        activate("forker", call_id="d2"), activate("forker", call_id="d3"),
        reply("c3"), reply("c2"), reply("c1"), reply("parent"),
    )
    events = await run(make_session(tmp_path, server, http_client), "hi")
    refused = server.chats[4]["messages"][-1]
    assert refused["role"] == "tool" and "the limit is 3" in refused["content"]
    deepest = events
    for depth in (1, 2, 3):
        deepest = [e.event for e in deepest if isinstance(e, Nested)]
        assert deepest, depth
    assert isinstance(events[-1], Done) and events[-1].text == "parent"


async def test_stop_stops_the_fork(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("forker"), Turn([Text("partial"), Hang()]))
    session = make_session(tmp_path, server, http_client)
    forked = asyncio.Event()

    async def turn() -> None:
        async for event in session.turn("hi"):
            if isinstance(event, Nested) and isinstance(event.event, TextDelta):
                forked.set()

    task = asyncio.ensure_future(turn())
    await forked.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The fork's stream was closed with the parent's turn: the server saw its client leave.
    assert await asyncio.to_thread(server.wait_disconnected)


def test_sessions_find_the_agents_saved_in_the_config_folder() -> None:
    AgentStore().save(AgentSpec("saved"))
    assert SessionFactory(AutoApprover()).agents.get("saved") == AgentSpec("saved")


def skill_names(chat: dict[str, Any]) -> list[str]:
    """The skills the request's `activate_skill` tool offers."""
    [tool] = [t for t in chat["tools"] if t["function"]["name"] == "activate_skill"]
    return list(tool["function"]["parameters"]["properties"]["name"]["enum"])


async def test_a_fork_announces_its_skill_context_model_and_agent(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("helped"), reply("FORK-ANSWER"), reply("final"))
    events = await run(make_session(tmp_path, server, http_client), "hi")
    started = [e for e in events if isinstance(e, ForkStarted)]
    assert started == [ForkStarted("c1", "helped", "fork", OTHER_MODEL, "helper")]
    assert events.index(started[0]) < min(i for i, e in enumerate(events) if isinstance(e, Nested))


async def test_a_named_agent_with_skills_gives_its_fork_only_those(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("owned"), calls(Call("activate_skill", {"name": "agent-only"}, id="c2")),
                  reply("FORK-ANSWER"), reply("final"))
    await run(make_session(tmp_path, server, http_client), "hi")
    parent, fork, fork_again, after = server.chats
    assert "owned" in skill_names(parent) and "agent-only" not in skill_names(parent)
    assert sorted(skill_names(fork)) == ["agent-only", "runner"]
    system = fork["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("You own skills.")
    assert "<name>agent-only</name>" in system["content"]
    assert "<name>owned</name>" not in system["content"]
    # The fork activated its agent's own skill; the parent's catalog never held it.
    assert "Body." in fork_again["messages"][-1]["content"]
    assert after["messages"][-1]["content"] == "FORK-ANSWER"


async def test_an_agent_whose_skills_cannot_be_read_is_a_clear_error(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    server.script(activate("lost"), reply("final"))
    events = await run(make_session(tmp_path, server, http_client), "hi")
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "error" and "agent 'lost' names skills that cannot be read" in finished.result
    assert "no-such-folder" in finished.result
    assert "cannot be read" in server.chats[1]["messages"][-1]["content"]


class Recording:
    def __init__(self) -> None:
        self.requests: list[ApprovalRequest] = []

    async def approve(self, request: ApprovalRequest) -> Approval:
        self.requests.append(request)
        return Approval("deny", by="user", reason="not now")


async def test_an_approval_asked_inside_forks_names_them_outermost_first(
    tmp_path: Path, server: FakeOllama, http_client: httpx.AsyncClient
) -> None:
    approver = Recording()
    server.script(
        activate("forker"), activate("runner", call_id="c2"),
        calls(Call("run_skill_script", {"skill": "runner", "command": "python3 scripts/hello.py"})),
        reply("denied"), reply("inner done"), reply("final"))
    events = await run(make_session(tmp_path, server, http_client, approver), "hi")
    [request] = approver.requests
    assert request.forks == ("forker", "runner") and request.command == "python3 scripts/hello.py"
    inner = [e.event for e in events if isinstance(e, Nested)]
    innermost = [e.event for e in inner if isinstance(e, Nested)]
    assert any(isinstance(e, ToolFinished) and e.status == "denied" for e in innermost)

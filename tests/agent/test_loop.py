from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from studio.agent.approval import Approval, AutoApprover, DenyAllApprover
from studio.agent.events import (
    ApprovalNeeded,
    ChatNotice,
    Done,
    Error,
    Event,
    TextDelta,
    ToolCallRequested,
    ToolFinished,
    ToolOutput,
    ToolStarted,
)
from studio.agent.execute import ToolExecutor
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.llm import Message, make_client
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.agent.processes import processes_in
from tests.fakes.approvers import RecordingApprover
from tests.fakes.fixtures import PLAIN_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.waiting import eventually


def make_agent(
    server: FakeOllama,
    http: httpx.AsyncClient,
    project: Path,
    approver: object,
    model: str = TOOL_MODEL,
    **config: object,
) -> tuple[Agent, list[Message], Grants, AuditLog]:
    skills = scan_root(SkillRoot(project / "skills")).skills
    grants = Grants(project.parent / "grants.yaml")
    audit = AuditLog(project.parent / "audit.jsonl")
    executor = ToolExecutor(
        SkillToolbox(skills, project),
        approver,
        grants,
        audit,  # type: ignore[arg-type]
        home=project.parent / "home",
    )
    agent = Agent(make_client("ollama", server.url, http), executor, AgentConfig(model, **config))  # type: ignore[arg-type]
    prompt, _ = system_prompt(skills)
    return agent, [Message("system", prompt), Message("user", "say hello with the skill")], grants, audit


async def run_all(agent: Agent, messages: list[Message]) -> list[Event]:
    return [event async for event in agent.run(messages)]


async def test_a_plain_answer_streams(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(reply("Hel", "lo"))
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, AutoApprover())
    events = await run_all(agent, messages)
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo"]
    assert events[-1] == Done("answered", "Hello", 1, events[-1].usage,  # type: ignore[union-attr]
                            model=TOOL_MODEL)
    sent = fake_ollama.chats[0]
    assert {t["function"]["name"] for t in sent["tools"]} == {
        "activate_skill",
        "read_skill_file",
        "run_skill_script",
    }
    assert "<available_skills>" in sent["messages"][0]["content"]
    assert "Run `python3 scripts/hello.py`" not in sent["messages"][0]["content"]


async def test_activate_then_run_with_approval(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(
        calls(Call("activate_skill", {"name": "demo"})),
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("It said hello."),
    )
    approver = RecordingApprover(Approval("once", by="user"))
    agent, messages, _, audit = make_agent(fake_ollama, http_client, project, approver)
    events = await run_all(agent, messages)
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert [f.status for f in finished] == ["ok", "ok"]
    assert "Run `python3 scripts/hello.py`" in finished[0].result
    assert "hello from the skill" in finished[1].result and finished[1].exit_code == 0
    assert any(isinstance(e, ToolOutput) and "hello" in e.text for e in events)
    assert [r.command for r in approver.requests] == ["python3 scripts/hello.py"]
    assert approver.requests[0].grant_scope
    tool_messages = fake_ollama.chats[2]["messages"][-2:]
    assert tool_messages[0]["role"] == "assistant" and tool_messages[1]["role"] == "tool"
    assert "hello from the skill" in tool_messages[1]["content"]
    assert isinstance(events[-1], Done) and events[-1].reason == "answered"
    kinds = [entry.event for entry in audit.entries()]
    assert kinds == ["decision", "approval", "run"]


async def test_deny_sends_the_reason_back(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("OK, I will not."),
    )
    approver = RecordingApprover(Approval("deny", by="user", reason="not today"))
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, approver)
    events = await run_all(agent, messages)
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "denied" and "not today" in finished.result
    assert not any(isinstance(e, ToolStarted) and e.command for e in events)
    assert "not today" in fake_ollama.chats[1]["messages"][-1]["content"]


async def test_always_allow_skips_the_next_approval_for_that_scope(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    command = {"skill": "demo", "command": "python3 scripts/hello.py"}
    fake_ollama.script(
        calls(Call("run_skill_script", command)), calls(Call("run_skill_script", command)), reply("done")
    )
    approver = RecordingApprover(Approval("always", by="user"))
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, approver)
    events = await run_all(agent, messages)
    assert len(approver.requests) == 1
    assert [e.status for e in events if isinstance(e, ToolFinished)] == ["ok", "ok"]


async def test_blocked_commands_never_reach_the_approver(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": "rm -rf ~"})), reply("ok"))
    approver = RecordingApprover()
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, approver)
    events = await run_all(agent, messages)
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "blocked" and finished.result.startswith("blocked")
    assert approver.requests == [] and not any(isinstance(e, ApprovalNeeded) for e in events)


async def test_the_same_call_three_times_stops_the_loop(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    call = Call("read_skill_file", {"skill": "demo", "path": "references/notes.md"})
    fake_ollama.script(calls(call), calls(call), calls(call), reply("never"))
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, DenyAllApprover())
    events = await run_all(agent, messages)
    assert isinstance(events[-1], Done) and events[-1].reason == "repeated-call"
    assert len(fake_ollama.chats) == 3


async def test_round_cap(fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path) -> None:
    fake_ollama.script(
        *[
            calls(
                Call("activate_skill", {"name": "demo"}),
                Call("read_skill_file", {"skill": "demo", "path": f"x{i}"}),
            )
            for i in range(3)
        ]
    )
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, DenyAllApprover(), max_rounds=2)
    events = await run_all(agent, messages)
    assert isinstance(events[-1], Done) and events[-1].reason == "round-limit"
    assert any(isinstance(e, ChatNotice) and "2 rounds" in e.message for e in events)


async def test_a_call_written_as_text_is_taken(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(
        reply('<tool_call>{"name": "activate_skill", "arguments": {"name": "demo"}}</tool_call>'),
        reply("done"),
    )
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, DenyAllApprover())
    events = await run_all(agent, messages)
    assert [e.tool for e in events if isinstance(e, ToolCallRequested)] == ["activate_skill"]


async def test_a_model_without_tools_gets_its_replies_constrained_to_a_call_or_an_answer(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(reply('{"answer": "plain"}'))
    agent, messages, _, _ = make_agent(
        fake_ollama, http_client, project, DenyAllApprover(), model=PLAIN_MODEL
    )
    events = await run_all(agent, messages)
    assert any(isinstance(e, ChatNotice) and "constrained to a tool call" in e.message for e in events)
    sent = fake_ollama.chats[0]
    assert "tools" not in sent
    assert len(sent["format"]["oneOf"]) == 4
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["plain"]
    assert events[-1] == Done("answered", "plain", 1, events[-1].usage,  # type: ignore[union-attr]
                            model=PLAIN_MODEL)


async def test_server_errors_become_an_error_event(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    agent, messages, _, _ = make_agent(
        fake_ollama, http_client, project, DenyAllApprover(), model="missing:1b"
    )
    events = await run_all(agent, messages)
    [error] = [e for e in events if isinstance(e, Error)]
    assert "ollama pull missing:1b" in error.message
    assert isinstance(events[-1], Done) and events[-1].reason == "error"


async def test_closing_the_turn_kills_a_running_tool(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    marker = project / "pid"
    fake_ollama.script(
        calls(
            Call(
                "run_skill_script",
                {"skill": "demo", "command": f"echo $$ > {marker}; echo started; sleep 60"},
            )
        ),
        reply("x"),
    )
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, AutoApprover())
    stream = agent.run(messages)
    async for event in stream:
        if isinstance(event, ToolOutput):
            break
    folder = (project / "skills" / "demo").resolve()
    assert processes_in(folder)
    await stream.aclose()
    assert await eventually(lambda: not processes_in(folder))


async def test_a_broken_grants_file_keeps_the_grant_for_the_session(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    (project.parent / "grants.yaml").write_text("- {{{ not yaml\n")
    command = {"skill": "demo", "command": "python3 scripts/hello.py"}
    fake_ollama.script(
        calls(Call("run_skill_script", command)), calls(Call("run_skill_script", command)), reply("ok")
    )
    approver = RecordingApprover(Approval("always", by="user", remember=True))
    agent, messages, _, _ = make_agent(fake_ollama, http_client, project, approver)
    events = await run_all(agent, messages)
    assert any(isinstance(e, ChatNotice) and "this session only" in e.message for e in events)
    assert len(approver.requests) == 1
    assert (project.parent / "grants.yaml").read_text() == "- {{{ not yaml\n"


async def test_a_server_that_hangs_ends_the_turn_after_one_timeout(
    http_client: httpx.AsyncClient, project: Path
) -> None:
    requests: list[bytes] = []
    silent: list[asyncio.StreamWriter] = []

    async def never_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        requests.append(await reader.readline())
        silent.append(writer)

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = make_client("ollama", f"http://127.0.0.1:{port}", http_client, idle_timeout=0.3)
    executor = ToolExecutor(SkillToolbox([], project), DenyAllApprover(), Grants(persist=False))
    try:
        events = await run_all(Agent(client, executor, AgentConfig(TOOL_MODEL)),
                               [Message("user", "hi")])
    finally:
        for writer in silent:
            writer.close()
        server.close()
    [error] = [e for e in events if isinstance(e, Error)]
    assert "0.3 s" in error.message
    assert isinstance(events[-1], Done) and events[-1].reason == "error"
    assert [line.split()[1] for line in requests] == [b"/api/show"]

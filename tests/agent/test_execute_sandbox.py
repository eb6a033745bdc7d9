"""How the executor uses the sandbox: what the approval and the run say about it, network only
when someone granted it, every command asked about where no sandbox exists, and commands that
cannot run at all refused before anyone is asked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studio.agent.approval import Approval, ApprovalRequest, AutoApprover
from studio.agent.events import ApprovalNeeded, Event, ToolFinished, ToolStarted
from studio.agent.execute import ToolExecutor
from studio.agent.run import MAX_COMMAND_BYTES
from studio.agent.sandbox import Support, detect
from studio.agent.tools import SkillToolbox
from studio.llm import ToolCall
from studio.policy import Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.approvers import RecordingApprover

NONE_HERE = Support(None, problem="this test has none")
needs_sandbox = pytest.mark.skipif(
    not detect().available, reason=f"no sandbox on this machine: {detect().problem}"
)
# Allowed by the policy (read-only, inside the workspace); asked about (runs code).
ALLOWED = "echo hi"
ASKS = "python3 scripts/hello.py"


def executor(project: Path, approver: object, **options: object) -> ToolExecutor:
    skills = scan_root(SkillRoot(project / "skills")).skills
    return ToolExecutor(
        SkillToolbox(skills, project), approver, Grants(project.parent / "grants.yaml"),  # type: ignore[arg-type]
        home=project.parent / "home", **options,  # type: ignore[arg-type]
    )


async def run(tool: ToolExecutor, command: str) -> list[Event]:
    call = ToolCall("c1", "run_skill_script", {"skill": "demo", "command": command})
    return [event async for event in tool.execute(call)]


def started(events: list[Event]) -> ToolStarted:
    (event,) = [e for e in events if isinstance(e, ToolStarted)]
    return event


def finished(events: list[Event]) -> ToolFinished:
    (event,) = [e for e in events if isinstance(e, ToolFinished)]
    return event


async def test_without_a_sandbox_what_the_policy_allows_is_asked_about(project: Path) -> None:
    approver = RecordingApprover(Approval("once", by="user"))
    events = await run(executor(project, approver, support=NONE_HERE), ALLOWED)
    (request,) = approver.requests
    assert request.sandbox.startswith("no sandbox: this test has none.")
    assert request.warnings[0] == ("sandbox", NONE_HERE.notice())
    assert request.network_choice is False
    assert "there is none here" in request.reasons[0]
    (needed,) = [e for e in events if isinstance(e, ApprovalNeeded)]
    assert NONE_HERE.notice() in needed.warnings
    assert started(events).sandbox == NONE_HERE.notice()
    assert finished(events).status == "ok"


async def test_without_a_sandbox_a_denial_stops_an_allowed_command(project: Path) -> None:
    approver = RecordingApprover(Approval("deny", by="user"))
    events = await run(executor(project, approver, support=NONE_HERE), ALLOWED)
    assert finished(events).status == "denied"
    assert not any(isinstance(e, ToolStarted) for e in events)


@needs_sandbox
async def test_an_allowed_command_runs_sandboxed_without_network(project: Path) -> None:
    approver = RecordingApprover(Approval("deny", by="user"))
    events = await run(executor(project, approver), ALLOWED)
    assert approver.requests == []
    description = started(events).sandbox
    assert description == (f"writes only in {project.resolve()}; no network; private /tmp; "
                           "home folder hidden")


@needs_sandbox
async def test_auto_approve_never_grants_the_network(project: Path) -> None:
    tool = executor(project, RecordingApprover(Approval("once", by="auto-approve")))
    events = await run(tool, ASKS)
    assert "; no network;" in (started(events).sandbox or "")
    assert await AutoApprover().approve(tool_request(project)) == Approval("once", "auto-approve")


def tool_request(project: Path) -> ApprovalRequest:
    return ApprovalRequest("run_skill_script", "demo", ASKS, project, project, (), (), None,
                           "writes only in here; no network", True)


@needs_sandbox
async def test_network_is_granted_for_the_one_run_whose_approval_says_so(project: Path) -> None:
    received = asyncio.Event()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.set()
        writer.close()

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    command = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}))\""
    try:
        approver = RecordingApprover(Approval("once", by="user", network=True))
        tool = executor(project, approver)
        events = await run(tool, command)
        assert approver.requests[0].network_choice is True
        assert "; no network;" in approver.requests[0].sandbox
        assert "network allowed" in (started(events).sandbox or "")
        assert finished(events).exit_code == 0 and received.is_set()
        approver.answers = [Approval("always", by="user")]
        received.clear()
        events = await run(tool, command)
        assert finished(events).exit_code != 0 and not received.is_set()
    finally:
        server.close()
        await server.wait_closed()


@needs_sandbox
async def test_allow_network_opens_every_run(project: Path) -> None:
    approver = RecordingApprover(Approval("once", by="auto-approve"))
    tool = executor(project, approver, allow_network=True)
    assert "network allowed" in (started(await run(tool, ALLOWED)).sandbox or "")
    await run(tool, ASKS)
    assert approver.requests[0].network_choice is False


async def test_a_command_too_long_to_run_is_refused_before_anyone_is_asked(project: Path) -> None:
    approver = RecordingApprover(Approval("once", by="user"))
    command = "echo " + "x" * MAX_COMMAND_BYTES
    events = await run(executor(project, approver, support=NONE_HERE), command)
    assert approver.requests == []
    result = finished(events)
    assert result.status == "error"
    assert f"at most {MAX_COMMAND_BYTES:,} bytes" in result.result


async def test_a_sandbox_that_cannot_start_is_an_error_not_an_unsandboxed_run(
    project: Path,
) -> None:
    broken = Support("bwrap", str(project / "no-such-bwrap"))
    events = await run(executor(project, AutoApprover(), support=broken), ALLOWED)
    result = finished(events)
    assert result.status == "error"
    assert result.result.startswith("error: the command could not be started: ")


@needs_sandbox
async def test_hosts_granted_in_an_approval_are_reached_through_the_proxy_and_audited(
    project: Path,
) -> None:
    from studio.policy import AuditLog

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    fetch = (f"curl -s -o /dev/null -w '%{{http_code}} ' http://127.0.0.1:{port}/a; "
             f"curl -s -o /dev/null -w '%{{http_code}}' http://localhost:{port}/b")
    audit = AuditLog(project.parent / "audit.jsonl")
    approver = RecordingApprover(Approval("once", by="user", hosts=("127.0.0.1",),
                                          remember_hosts=True))
    tool = executor(project, approver, audit=audit)
    try:
        events = await run(tool, fetch)
        (request,) = approver.requests
        assert request.hosts == ("127.0.0.1", "localhost")
        assert "network only to 127.0.0.1 through the studio's proxy" in (started(events).sandbox or "")
        assert finished(events).result.splitlines()[-1] == "200 403"
        # Remembered for the workspace: the next run reaches it without a network choice.
        assert tool.grants.hosts(project.resolve()) == ["127.0.0.1"]
        again = await run(tool, fetch)
        assert finished(again).result.splitlines()[-1] == "200 403"
    finally:
        server.close()
        await server.wait_closed()
    connections = [(e.decision, e.extra["host"], e.extra["port"]) for e in audit.entries()
                   if e.event == "connection"]
    assert connections == [("allow", "127.0.0.1", port), ("deny", "localhost", port)] * 2

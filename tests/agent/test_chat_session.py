"""The core chat session against the scripted Ollama server: turns, approvals, Stop, the embedded
engine's life and the two workspace modes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from studio.agent.approval import Approval, AutoApprover
from studio.agent.events import (
    Done,
    Error,
    TextDelta,
    ToolFinished,
    ToolOutput,
)
from studio.agent.server import ModelServer
from studio.agent.session import SessionFactory, SessionSettings, WorkspaceMode
from studio.llm import EmbeddedEngine
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.summary import SkillSummary
from tests.agent.processes import processes_in
from tests.fakes.approvers import RecordingApprover
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Call, calls, reply

READ_OUTSIDE_THE_SKILL = "cat ../../notes.txt"


def skills_of(project: Path) -> list[SkillSummary]:
    return scan_root(SkillRoot(project / "skills")).skills


def factory(project: Path, approver: object, http: httpx.AsyncClient | None = None,
            server: ModelServer | None = None) -> SessionFactory:
    return SessionFactory(approver, http,  # type: ignore[arg-type]
                          grants=Grants(project.parent / "grants.yaml"),
                          audit=AuditLog(project.parent / "audit.jsonl"),
                          server=server, home=project.parent / "home")


def settings_for(server: FakeOllama, project: Path, mode: WorkspaceMode = "project"
                 ) -> SessionSettings:
    return SessionSettings(url=server.url, model=TOOL_MODEL, workspace_mode=mode, workspace=project)


async def test_a_turn_streams_its_events_and_the_next_turn_continues_the_conversation(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(reply("Hel", "lo"), reply("again"))
    session = factory(project, AutoApprover(), http_client).session(
        settings_for(fake_ollama, project), skills_of(project))
    events = [event async for event in session.turn("hi")]
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo"]
    assert isinstance(events[-1], Done) and events[-1].reason == "answered"
    [_ async for _ in session.turn("and now?")]
    assert [m.role for m in session.messages] == ["system", "user", "assistant", "user", "assistant"]
    sent = fake_ollama.chats[1]["messages"]
    assert [m["content"] for m in sent[1:]] == ["hi", "Hello", "and now?"]
    assert "demo" in sent[0]["content"]


async def test_a_server_that_does_not_answer_ends_the_turn_with_its_message(
    http_client: httpx.AsyncClient, project: Path, fake_ollama: FakeOllama
) -> None:
    url = fake_ollama.url
    fake_ollama.stop()
    session = factory(project, AutoApprover(), http_client).session(
        SessionSettings(url=url, model=TOOL_MODEL, workspace=project), [])
    events = [event async for event in session.turn("hi")]
    [error] = [e for e in events if isinstance(e, Error)]
    assert url.removeprefix("http://") in error.message
    assert isinstance(events[-1], Done) and events[-1].reason == "error"


async def test_a_command_the_policy_asks_about_reaches_the_approver(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    command = "python3 scripts/hello.py"
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": command})),
                       reply("it did not run"))
    approver = RecordingApprover(Approval("deny", by="user", reason="not now"))
    session = factory(project, approver, http_client).session(
        settings_for(fake_ollama, project), skills_of(project))
    events = [event async for event in session.turn("say hello")]
    [request] = approver.requests
    assert (request.command, request.skill) == (command, "demo")
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "denied" and "not now" in finished.result


async def test_cancelling_the_turn_kills_the_running_tool(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    command = "echo started; sleep 60 & sleep 60"
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": command})),
                       reply("x"))
    session = factory(project, AutoApprover(), http_client).session(
        settings_for(fake_ollama, project), skills_of(project))
    started = asyncio.Event()

    async def turn() -> None:
        async for event in session.turn("run it"):
            if isinstance(event, ToolOutput):
                started.set()

    task = asyncio.ensure_future(turn())
    await started.wait()
    folder = project / "skills" / "demo"
    assert processes_in(folder)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(200):
        if not processes_in(folder):
            break
        await asyncio.sleep(0.05)
    assert processes_in(folder) == []


class FakeEngine(EmbeddedEngine):
    """An engine that serves the scripted OpenAI-compatible server instead of a model file."""

    def __init__(self, path: Path, server: FakeOpenAI, log: list[str]) -> None:
        super().__init__(path)
        self.server = server
        self.log = log
        self.started = False

    @property
    def running(self) -> bool:
        return self.started

    async def start(self) -> str:
        self.log.append(f"start {self.model_path.name}")
        self.started, self.base_url = True, self.server.url
        return self.base_url

    async def stop(self) -> None:
        self.log.append(f"stop {self.model_path.name}")
        self.started = False


async def test_the_embedded_engine_starts_once_for_its_chats_and_stops_on_close(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path, tmp_path: Path
) -> None:
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    fake_openai.script(reply("one"), reply("two"))
    log: list[str] = []
    server = ModelServer(http_client, engine_factory=lambda path: FakeEngine(path, fake_openai, log))
    sessions = factory(project, AutoApprover(), server=server)
    settings = SessionSettings(backend="embedded", model=str(model), workspace=project)
    for _ in range(2):
        events = [event async for event in sessions.session(settings, []).turn("hi")]
        assert isinstance(events[-1], Done) and events[-1].reason == "answered"
    assert log == ["start tiny.gguf"]
    await sessions.close()
    assert log == ["start tiny.gguf", "stop tiny.gguf"]
    assert server.engine is None


async def test_an_embedded_model_that_is_neither_a_file_nor_pulled_is_named(
    http_client: httpx.AsyncClient, project: Path
) -> None:
    session = factory(project, AutoApprover(), http_client).session(
        SessionSettings(backend="embedded", model="no-such-model", workspace=project), [])
    events = [event async for event in session.turn("hi")]
    [error] = [e for e in events if isinstance(e, Error)]
    assert "no-such-model is neither a .gguf file nor a model Ollama has pulled" in error.message


@pytest.mark.parametrize(
    ("mode", "workspace_of_skill", "verdict"),
    [("project", ".", "allow"), ("skill", "skills/demo", "ask")],
)
async def test_the_workspace_mode_decides_what_is_outside(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path,
    mode: WorkspaceMode, workspace_of_skill: str, verdict: str,
) -> None:
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": READ_OUTSIDE_THE_SKILL})),
        reply("read"))
    sessions = factory(project, AutoApprover(), http_client)
    session = sessions.session(settings_for(fake_ollama, project, mode), skills_of(project))
    [_ async for _ in session.turn("read the notes")]
    [decision] = [e for e in sessions.audit.entries() if e.event == "decision"]
    assert decision.decision == verdict
    assert decision.workspace == str((project / workspace_of_skill).resolve())


async def test_a_skill_outside_the_project_is_its_own_workspace_in_project_mode(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": READ_OUTSIDE_THE_SKILL})),
        reply("read"))
    sessions = factory(project, AutoApprover(), http_client)
    settings = SessionSettings(url=fake_ollama.url, model=TOOL_MODEL, workspace=elsewhere)
    [_ async for _ in sessions.session(settings, skills_of(project)).turn("read the notes")]
    [decision] = [e for e in sessions.audit.entries() if e.event == "decision"]
    assert decision.decision == "ask"
    assert decision.workspace == str(project / "skills" / "demo")


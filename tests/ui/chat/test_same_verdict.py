"""The studio and `studio chat` build their chat sessions from their own settings; in the same
setting, the same commands get the same verdicts and leave the same audit lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from pytestqt.qtbot import QtBot

from studio.agent.approval import Approval
from studio.agent.session import SessionFactory, SessionSettings
from studio.cli import build_parser
from studio.commands.chat import session_settings
from studio.policy import AuditLog, Grants
from studio.settings import BackendSettings
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.ui.chat.backend import turn_settings
from tests.fakes.approvers import RecordingApprover
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill
from tests.ui.helpers import start

COMMANDS = ["cat ../../notes.txt", "ls ..", "python3 scripts/hello.py", "rm -rf ~",
            "cat references/notes.md"]


def cli_settings(url: str, mode: str, project: Path) -> SessionSettings:
    args = build_parser().parse_args(["chat", "go", "--url", url, "--model", TOOL_MODEL,
                                      "--workspace-mode", mode, "--workspace", str(project)])
    return session_settings(args, args.url)


def gui_settings(url: str, mode: str, project: Path) -> SessionSettings:
    backend = BackendSettings(kind="ollama", url=url, model=TOOL_MODEL,
                              workspace_mode=mode,  # type: ignore[arg-type]
                              workspace=str(project))
    return turn_settings(backend, TOOL_MODEL, False)


def comparable(audit: AuditLog) -> list[tuple[Any, ...]]:
    return [(e.event, e.command, e.cwd, e.decision, e.reasons, e.workspace, e.skill, e.approved_by,
             e.how) for e in audit.entries() if e.event in ("decision", "approval")]


@pytest.mark.parametrize("mode", ["project", "skill"])
def test_the_studio_and_the_cli_judge_a_command_alike(
    qtbot: QtBot, fake_ollama: FakeOllama, tmp_path: Path, mode: str
) -> None:
    project = (tmp_path / "project").resolve()
    write_skill(project / "skills", "demo", frontmatter("demo") + "Say hello.\n",
                {"scripts/hello.py": "print('hello')\n", "references/notes.md": "notes\n"})
    (project / "notes.txt").write_text("notes\n")
    skills = scan_root(SkillRoot(project / "skills")).skills
    turn = [calls(*(Call("run_skill_script", {"skill": "demo", "command": c}) for c in COMMANDS)),
            reply("done")]
    fake_ollama.script(*turn, *turn)
    results: dict[str, tuple[list[tuple[Any, ...]], list[tuple[str, str]]]] = {}

    async def run(name: str, settings: SessionSettings) -> None:
        approver = RecordingApprover(Approval("once", by="user"))
        audit = AuditLog(tmp_path / f"{name}-audit.jsonl")
        async with httpx.AsyncClient() as http:
            sessions = SessionFactory(approver, http, grants=Grants(persist=False), audit=audit,
                                      home=tmp_path / "home")
            [_ async for _ in sessions.session(settings, skills).turn("go")]
        asked = [(r.command, str(r.workspace)) for r in approver.requests]
        results[name] = comparable(audit), asked

    async def both() -> None:
        await run("cli", cli_settings(fake_ollama.url, mode, project))
        await run("gui", gui_settings(fake_ollama.url, mode, project))

    task = start(both())
    qtbot.waitUntil(task.done, timeout=60000)
    task.result()
    assert results["cli"] == results["gui"]
    decisions = [entry[3] for entry in results["cli"][0] if entry[0] == "decision"]
    assert len(decisions) == len(COMMANDS) and "block" in decisions

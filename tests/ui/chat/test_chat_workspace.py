"""The chat pane judges commands in the workspace mode Settings choose: each skill's folder by
default, the project folder when `backend.workspace_mode` is "project"."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pytestqt.qtbot import QtBot

from studio.ui.chat.approval_dialog import ApprovalDialog
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import open_dialog


@pytest.mark.parametrize("mode", [None, "skill", "project"])
def test_the_approval_names_the_workspace_of_the_mode_in_settings(
    qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama, chat_skills: Path,
    tmp_path: Path, mode: str | None,
) -> None:
    backend = {"kind": "ollama", "url": fake_ollama.url, "model": TOOL_MODEL}
    if mode is not None:
        backend |= {"workspace_mode": mode, "workspace": str(chat_skills)}
    (tmp_path / "chat-settings.yaml").write_text(yaml.safe_dump({"backend": backend}),
                                                 encoding="utf-8")
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/hello.py"})),
        reply("done"))
    pane = chat_window().chat.pane
    task = pane.send("say hello")
    assert task is not None
    dialog = open_dialog(qtbot, ApprovalDialog)
    expected = chat_skills if mode == "project" else chat_skills / "demo"
    assert dialog.request.workspace == expected.resolve()
    dialog.once_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    [decision] = [e for e in pane.sessions.audit.entries() if e.event == "decision"]
    assert decision.workspace == str(expected.resolve())

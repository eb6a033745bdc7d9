"""A skill inside a zip archive, tried in the chat: its script runs from the unpacked copy in the
cache folder after the same approval as any other."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.paths import cache_dir
from studio.ui.chat.approval_dialog import ApprovalDialog
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.helpers import open_dialog


@pytest.fixture
def chat_skills(tmp_path: Path) -> Path:
    archive = tmp_path / "pack.zip"
    with zipfile.ZipFile(archive, "w") as pack:
        pack.writestr("zipped/SKILL.md", "---\nname: zipped\ndescription: Says hello from a zip. "
                      "Use when asked.\n---\nRun `python3 scripts/hello.py`.\n")
        pack.writestr("zipped/scripts/hello.py", "print('hello from the zip')\n")
    return archive


def test_a_zipped_skills_script_runs_after_approval(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    before = chat_skills.read_bytes()
    fake_ollama.script(
        calls(Call("run_skill_script", {"skill": "zipped", "command": "python3 scripts/hello.py"})),
        reply("It said hello."))
    pane = chat_window().chat.pane
    task = pane.send("say hello from the zip")
    assert task is not None
    dialog = open_dialog(qtbot, ApprovalDialog)
    assert dialog.request.cwd.is_relative_to(cache_dir())
    dialog.once_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    [card] = pane.transcript.cards()
    assert card.record.status == "ok", (card.record.result, card.record.sandbox)
    assert "hello from the zip" in card.output.toPlainText()
    assert card.where.text().startswith(f"in {cache_dir()}")
    assert chat_skills.read_bytes() == before

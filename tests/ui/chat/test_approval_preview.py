"""The approval dialog for a skill the model drafted: the preview or diff, and Save."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.agent.approval import ApprovalRequest
from studio.ui.chat.approval_dialog import ApprovalDialog

DIFF = "--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1 +1 @@\n-old\n+new\n"


def test_a_drafted_skill_shows_its_diff_and_saves_on_1(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    request = ApprovalRequest("update_skill", "demo", "update skill demo in /s/demo", Path("/s/demo"),
                              Path("/s"), ("the model wants to save a skill",), (), None,
                              preview=DIFF)
    dialog = ApprovalDialog(request, parent)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    assert dialog.preview_box.isVisible() and dialog.preview_box.toPlainText() == DIFF
    assert dialog.once_button.text() == "1  Save"
    assert not dialog.always_button.isEnabled()
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval().choice == "once"


def test_a_command_shows_no_preview(qtbot: QtBot) -> None:
    request = ApprovalRequest("run_skill_script", "demo", "ls", Path("/s"), Path("/s"), (), (), None)
    dialog = ApprovalDialog(request)
    qtbot.addWidget(dialog)
    assert dialog.preview_box.isHidden()
    assert dialog.once_button.text() == "1  Execute once"

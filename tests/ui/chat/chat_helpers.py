"""Helpers for the chat tests."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.agent.approval import ApprovalRequest
from studio.ui.chat.approval_dialog import ApprovalDialog
from studio.ui.chat.pane import ChatPane
from studio.ui.mainwindow import MainWindow

ChatWindowFactory = Callable[..., MainWindow]


def run_turn(qtbot: QtBot, pane: ChatPane, prompt: str, timeout: int = 10000) -> None:
    """Send a prompt and wait until the answer is over."""
    task = pane.send(prompt)
    assert task is not None, "the pane did not send"
    qtbot.waitUntil(task.done, timeout=timeout)


def open_approval(qtbot: QtBot, parent: QWidget, request: ApprovalRequest) -> ApprovalDialog:
    """An approval dialog for `request`, opened (not exec'd) over `parent` and shown."""
    dialog = ApprovalDialog(request, parent)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    return dialog

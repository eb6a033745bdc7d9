"""The approval dialog on its own: what it shows, its keys, and that awaiting it keeps the loop
running."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.agent.approval import ApprovalRequest
from studio.ui.chat.approval_dialog import ApprovalDialog, DialogApprover, banner_level
from tests.ui.chat.chat_helpers import open_approval
from tests.ui.helpers import open_dialog

LONG = "python3 scripts/profile.py " + " ".join(f"data/column_{n:03d}.csv" for n in range(60))


def request(command: str = "cat ../../notes.txt", *, scope: str | None = None,
            warnings: tuple[tuple[str, str], ...] = (
                ("outside", "reads `../../notes.txt`, which is outside the workspace"),),
            reasons: tuple[str, ...] = ("the reason",)) -> ApprovalRequest:
    return ApprovalRequest("run_skill_script", "demo", command, Path("/skills/demo"),
                           Path("/skills/demo"), reasons, warnings, scope)


def test_warnings_are_coloured_by_kind() -> None:
    assert banner_level("outside") == "danger"
    assert banner_level("secrets") == "danger"
    assert banner_level("network") == "caution"
    assert banner_level("dotfile") == "caution"
    assert banner_level("program") == "info"


def test_the_dialog_shows_the_whole_command_and_the_outside_warning(
        qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request(LONG, warnings=(
        ("outside", "reads `../x`, which is outside the workspace"),
        ("network", "`curl` uses the network"))))
    assert dialog.command_box.toPlainText() == LONG
    assert [b.property("level") for b in dialog.banners] == ["danger", "caution"]
    assert "Outside the workspace" in dialog.banners[0].text()
    assert "<code>../x</code>" in dialog.banners[0].text()
    box = dialog.command_box
    assert box.document().size().width() <= box.viewport().width() + 1
    assert box.document().size().height() > box.fontMetrics().lineSpacing() * 3
    assert not dialog.always_button.isEnabled() and not dialog.remember_check.isEnabled()
    assert "not offered" in dialog.scope_label.text()
    assert dialog.reasons_label.text() == "• the reason"


def test_execute_once_by_key(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request())
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval().choice == "once" and dialog.approval().by == "user"


def test_always_allow_shows_its_scope_and_can_be_remembered(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request("python3 scripts/x.py", warnings=(),
                                         scope="`python3` in `scripts/` and below"))
    assert "<code>python3</code> in <code>scripts/</code> and below" in dialog.scope_label.text()
    assert "for this session" in dialog.scope_label.text()
    dialog.remember_check.setChecked(True)
    qtbot.keyClick(dialog, Qt.Key.Key_2)
    approval = dialog.approval()
    assert (approval.choice, approval.remember) == ("always", True)


def test_a_digit_typed_as_the_reason_is_text_not_a_choice(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request())
    dialog.reason_edit.setFocus()
    qtbot.keyClicks(dialog.reason_edit, "1 file is enough")
    assert dialog.isVisible()
    qtbot.keyClick(dialog.reason_edit, Qt.Key.Key_Return)
    approval = dialog.approval()
    assert (approval.choice, approval.reason) == ("deny", "1 file is enough")


@pytest.mark.parametrize("how", ["escape", "close", "key 3", "enter"])
def test_escape_closing_and_the_default_button_deny(qtbot: QtBot, parent: QWidget,
                                                    how: str) -> None:
    dialog = open_approval(qtbot, parent, request())
    assert dialog.deny_button.isDefault() and not dialog.once_button.isDefault()
    if how == "escape":
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    elif how == "close":
        dialog.close()
    elif how == "key 3":
        qtbot.keyClick(dialog, Qt.Key.Key_3)
    else:
        qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert dialog.approval().choice == "deny"


def test_the_approver_awaits_the_dialog_while_the_loop_runs(
        qtbot: QtBot, qloop: asyncio.AbstractEventLoop, parent: QWidget) -> None:
    ticks: list[int] = []

    async def tick() -> None:
        while True:
            ticks.append(1)
            await asyncio.sleep(0.01)

    ticker = asyncio.ensure_future(tick())
    answer = asyncio.ensure_future(DialogApprover(parent).approve(request()))
    dialog = open_dialog(qtbot, ApprovalDialog)
    assert dialog.isModal()
    before = len(ticks)
    qtbot.waitUntil(lambda: len(ticks) > before + 3)
    assert not answer.done()
    dialog.once_button.click()
    qtbot.waitUntil(answer.done)
    ticker.cancel()
    assert answer.result().choice == "once"


def test_a_request_from_forks_names_them_and_the_chats_own_does_not(
        qtbot: QtBot, parent: QWidget) -> None:
    plain = open_approval(qtbot, parent, request())
    assert not plain.fork_label.isVisibleTo(plain)
    plain.reject()
    forked = open_approval(qtbot, parent, replace(request(), forks=("outer", "<inner>")))
    assert forked.fork_label.isVisibleTo(forked)
    assert "<b>outer</b> › <b>&lt;inner&gt;</b>" in forked.fork_label.text()

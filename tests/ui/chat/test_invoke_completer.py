"""Typing `/` or `$` at the start of a message offers the skills the user may invoke by name."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.ui.chat.invoke_completer import InvocationCompleter, invocable_names
from studio.ui.chat.pane import PromptEdit
from tests.skills.helpers import summary


def make_edit(qtbot: QtBot) -> PromptEdit:
    edit = PromptEdit()
    qtbot.addWidget(edit)
    edit.completer = InvocationCompleter(edit, lambda: [("deploy", "Deploys."),
                                                         ("docs", "Docs."), ("notes", "Notes.")])
    edit.show()
    return edit


def test_slash_lists_the_names_and_picking_one_leaves_room_for_arguments(qtbot: QtBot) -> None:
    edit = make_edit(qtbot)
    sent: list[bool] = []
    edit.submitted.connect(lambda: sent.append(True))
    qtbot.keyClicks(edit, "/d")
    completer = edit.completer
    assert completer is not None and completer.popup().isVisible()
    assert completer.completionCount() == 2 and completer.currentCompletion() == "/deploy"
    # Enter is the popup's while it shows: it picks a completion and does not send.
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert not sent
    completer.activated.emit("/deploy")
    assert edit.toPlainText() == "/deploy " and not sent
    qtbot.keyClicks(edit, "staging")
    assert not completer.popup().isVisible()
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert sent == [True]


def test_dollar_works_and_other_text_offers_nothing(qtbot: QtBot) -> None:
    edit = make_edit(qtbot)
    qtbot.keyClicks(edit, "$no")
    assert edit.completer is not None and edit.completer.currentCompletion() == "$notes"
    edit.clear()
    qtbot.keyClicks(edit, "hello /d")
    assert not edit.completer.popup().isVisible()


def test_skills_the_user_may_not_invoke_are_not_offered() -> None:
    hidden = replace(summary("legacy", "Background."), user_invocable=False)
    assert invocable_names([summary("deploy", "Deploys."), hidden,
                            summary("broken", "x", loadable=False)]) == [("deploy", "Deploys.")]

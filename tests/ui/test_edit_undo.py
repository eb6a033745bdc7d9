"""Edit ▸ Undo and Redo (and their keys) act on the history of whatever has the focus: an Evals
tab's tables have their own, the skill's views share the SKILL.md's; the items say which."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.evals.panel import EvalsPanel
from studio.ui.mainwindow import MainWindow
from tests.ui.helpers import WindowFactory


def _open(window: MainWindow, skills_root: Path) -> tuple[SkillEditorTab, EvalsPanel]:
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    panel = window.evals.panel_for(tab)
    assert panel is not None
    return tab, panel


def _focus(qtbot: QtBot, window: MainWindow, widget: object) -> None:
    window.activateWindow()
    widget.setFocus()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: widget.hasFocus())  # type: ignore[attr-defined]


def _evals(skills_root: Path) -> list[object]:
    path = skills_root / "web-search" / "evals" / "evals.json"
    return json.loads(path.read_text(encoding="utf-8"))["evals"] if path.exists() else []


def test_undo_in_the_evals_tables_undoes_their_edit_not_the_skills(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    tab, panel = _open(window, skills_root)
    tab.set_field("license", "MIT")
    tab.views.setCurrentWidget(panel)
    panel.files.add_eval("Search the web for cats")
    assert len(_evals(skills_root)) == 1

    _focus(qtbot, window, panel.files.evals_view)
    assert window.undo_action.text() == "&Undo Add eval"
    assert window.undo_action.isEnabled()
    assert not window.redo_action.isEnabled()
    window.undo_action.trigger()

    assert _evals(skills_root) == []
    assert "license: MIT" in tab.doc.text() and tab.dirty
    assert window.undo_action.text() == "&Undo" and not window.undo_action.isEnabled()
    assert window.redo_action.text() == "&Redo Add eval" and window.redo_action.isEnabled()
    window.redo_action.trigger()
    assert len(_evals(skills_root)) == 1
    assert "license: MIT" in tab.doc.text()


def test_undo_in_the_skills_views_undoes_the_skill(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    tab, panel = _open(window, skills_root)
    tab.views.setCurrentWidget(panel)
    panel.files.add_eval("Search the web for cats")
    tab.views.setCurrentWidget(tab.raw_editor)
    tab.set_field("license", "MIT")

    _focus(qtbot, window, tab.raw_editor)
    assert window.undo_action.text() == "&Undo" and window.undo_action.isEnabled()
    window.undo_action.trigger()
    assert "license" not in tab.doc.text() and not tab.dirty
    assert len(_evals(skills_root)) == 1
    assert not window.undo_action.isEnabled() and window.redo_action.isEnabled()


def test_the_undo_key_outside_a_table_but_in_the_evals_tables_undoes_them(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    tab, panel = _open(window, skills_root)
    tab.set_field("license", "MIT")
    tab.views.setCurrentWidget(panel)
    panel.files.add_query("find cat pictures")
    tab_bar = panel.files.tabBar()
    tab_bar.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    _focus(qtbot, window, tab_bar)

    qtbot.keyClick(tab_bar, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert panel.files.triggers_model.rowCount() == 0
    assert "license: MIT" in tab.doc.text()


def test_undo_in_the_chats_message_box_undoes_its_typing(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    tab, _panel = _open(window, skills_root)
    tab.set_field("license", "MIT")
    window.chat.dock.show()
    message = window.chat.pane.input
    _focus(qtbot, window, message)
    message.insertPlainText("half a question")

    assert window.undo_action.isEnabled()
    window.undo_action.trigger()
    assert message.toPlainText() == ""
    assert "license: MIT" in tab.doc.text()

"""The library from the keyboard: Down and Enter in the filter reach the matches (as VS Code's
quick open does), Tab goes from the filter to the tree, and the "Validate for" choice changes only
when it is opened."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from tests.ui.accessibility import next_tab_stop
from tests.ui.helpers import WindowFactory, write_skill


def _opened(panel: object) -> list[str]:
    names: list[str] = []
    panel.skill_activated.connect(  # type: ignore[attr-defined]
        lambda summary: names.append(summary.directory.name))
    return names


def test_down_moves_to_the_first_match_and_enter_opens_it(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    for name in ("alpha-notes", "pdf-forms", "pdf-tables"):
        write_skill(root, name)
    window = make_window(root)
    panel = window.library_panel
    opened = _opened(panel)
    panel.focus_filter()
    qtbot.keyClicks(panel.filter_edit, "pdf")

    # Down at once, before the filter's delay has passed: the matches of what was typed.
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Down)
    selected = panel.selected_summary()
    assert isinstance(selected, SkillSummary) and selected.directory.name == "pdf-forms"
    qtbot.waitUntil(lambda: QApplication.focusWidget() is panel.tree)
    qtbot.keyClick(panel.tree, Qt.Key.Key_Return)
    assert opened == ["pdf-forms"]
    qtbot.waitUntil(lambda: window.editors.current_skill_tab() is not None)
    tab = window.editors.current_skill_tab()
    assert tab is not None and tab.doc.skill.name == "pdf-forms"


def test_enter_in_the_filter_opens_the_first_match(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    for name in ("alpha-notes", "pdf-forms", "zeta-tables"):
        write_skill(root, name)
    window = make_window(root)
    panel = window.library_panel
    opened = _opened(panel)

    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert opened == []  # an empty box opens nothing
    qtbot.keyClicks(panel.filter_edit, "tables")
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert opened == ["zeta-tables"]
    panel.filter_edit.setText("nothing-like-this")
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert opened == ["zeta-tables"]


def test_tab_goes_from_the_filter_to_the_tree(make_window: WindowFactory,
                                              tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "alpha-notes")
    panel = make_window(root).library_panel
    assert next_tab_stop(panel.filter_edit) is panel.tree
    assert next_tab_stop(panel.tree) is panel.search_button


def test_the_target_changes_only_when_its_list_is_opened(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "alpha-notes")
    window = make_window(root)
    panel = window.library_panel
    combo = panel.target_picker.combo
    assert combo.isEnabled()
    picked: list[str] = []
    panel.target_requested.connect(lambda _path, target: picked.append(target))
    before = combo.currentIndex()

    for key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_End, Qt.Key.Key_PageDown):
        qtbot.keyClick(combo, key)
    qtbot.keyClicks(combo, "c")
    center = QPointF(combo.rect().center())
    wheel = QWheelEvent(center, QPointF(combo.mapToGlobal(combo.rect().center())), QPoint(),
                        QPoint(0, -120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(combo, wheel)
    assert combo.currentIndex() == before and picked == []

    # Opened, its list picks as usual.
    combo.showPopup()
    qtbot.waitUntil(combo.view().isVisible)
    qtbot.keyClick(combo.view(), Qt.Key.Key_Down)
    qtbot.keyClick(combo.view(), Qt.Key.Key_Return)
    assert picked and combo.currentIndex() != before

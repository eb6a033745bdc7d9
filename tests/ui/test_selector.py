"""Selectors change only when opened: a closed one ignores the arrow and page keys, typed
letters and the wheel (tabbing onto one and pressing Down moved on to the next item), and the
window's consequential choices are selectors."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.ui.selector import Selector
from tests.ui.helpers import WindowFactory, write_skill


def _wheel(combo: Selector) -> None:
    center = QPointF(combo.rect().center())
    QApplication.sendEvent(combo, QWheelEvent(
        center, QPointF(combo.mapToGlobal(combo.rect().center())), QPoint(), QPoint(0, -120),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
        False))


def test_a_closed_selector_ignores_keys_and_the_wheel(qtbot: QtBot) -> None:
    combo = Selector()
    qtbot.addWidget(combo)
    combo.addItems(["Ollama", "LM Studio", "llama.cpp"])
    combo.show()
    changes: list[int] = []
    combo.currentIndexChanged.connect(changes.append)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_End, Qt.Key.Key_Up):
        qtbot.keyClick(combo, key)
    qtbot.keyClicks(combo, "l")
    _wheel(combo)
    assert changes == [] and combo.currentIndex() == 0

    # An editable one types as any box does.
    combo.setEditable(True)
    qtbot.keyClicks(combo, "x")
    assert combo.currentText().endswith("x")


def test_the_windows_choices_are_selectors(make_window: WindowFactory, tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "alpha-notes")
    window = make_window(tmp_path / "skills")
    bar = window.chat.pane.model_bar
    problems = window.problems_panel
    for combo in (bar.backend_combo, bar.model_combo, problems.scope, problems.severity,
                  problems.code, window.library_panel.status_filter,
                  window.library_panel.target_picker.combo):
        assert isinstance(combo, Selector), combo.toolTip()

"""The accessibility checks of tests/ui/accessibility.py leave Qt's ownership as they found it.

Walking the focus chain with PySide's `nextInFocusChain()` made each widget returned a child of
the widget asked, on the Python side: a dialog ended up the child of its own last button, a cycle
apart from the parent that holds it, which the garbage collector then freed while Qt still held
the widgets (the whole suite crashed in a later collection). The checks must not do that."""

from __future__ import annotations

import gc
import weakref

import shiboken6
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from tests.ui.accessibility import next_tab_stop, tab_stops, unnamed_controls, unreachable_controls


class _Form(QDialog):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.name = QLineEdit()
        self.name.setAccessibleName("Name")
        layout.addWidget(self.name)
        row = QHBoxLayout()
        self.ok = QPushButton("OK")
        self.cancel = QPushButton("Cancel")
        row.addWidget(self.ok)
        row.addWidget(self.cancel)
        layout.addLayout(row)


def _live_wrappers_in_garbage() -> list[str]:
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = [type(o).__name__ for o in gc.garbage
                 if isinstance(o, shiboken6.Shiboken.Object) and shiboken6.isValid(o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def test_the_checks_find_tab_order_and_leave_the_dialog_held_by_its_parent(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    dialog = _Form(parent)
    dialog.open()
    qtbot.waitExposed(dialog)

    assert tab_stops(dialog) == [dialog.name, dialog.ok, dialog.cancel]
    assert next_tab_stop(dialog.ok) is dialog.cancel
    assert unnamed_controls(dialog) == []
    assert unreachable_controls(dialog) == []

    held = weakref.ref(dialog)
    del dialog
    assert _live_wrappers_in_garbage() == []
    assert held() is not None and held().parent() is parent  # type: ignore[union-attr]

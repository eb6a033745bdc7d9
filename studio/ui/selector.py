"""A combo box that changes only when it is opened.

A closed QComboBox takes the next item on an arrow key, a page key, a typed letter or a turn of
the wheel: tabbing through the window onto one (the root's validation target, the chat's backend)
and pressing Down to move on silently changed what it selects. A `Selector` leaves those to its
parent (the wheel scrolls the panel under it); Space, F4 and Alt+Down open it, and its list
takes every key while open.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QComboBox

# Keys that pick another item of a closed QComboBox (typed letters pick one too).
_PICKING_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp,
                           Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_End})


class Selector(QComboBox):
    """A QComboBox whose closed box ignores the keys and the wheel that would change it."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        opens = (event.key() == Qt.Key.Key_Down
                 and event.modifiers() & Qt.KeyboardModifier.AltModifier)
        typed = event.text().isprintable() and event.text().strip() != ""
        if not self.isEditable() and not opens and (
                Qt.Key(event.key()) in _PICKING_KEYS or typed):
            event.ignore()
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()

"""A word-wrapped label that keeps the height its wrapped text needs.

A window works out its height from its labels' natural widths; a wrapped label then given less
width needs more lines than it was given room for, and its last line was cut off (the approval
dialog's warnings). This one asks for the height of its lines at the width it has.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class WrappedLabel(QLabel):
    """A QLabel with word wrap on, never shorter than its text at its width."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        needed = self.heightForWidth(self.width())
        if needed > 0 and needed != self.minimumHeight():
            self.setMinimumHeight(needed)

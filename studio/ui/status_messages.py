"""Telling the user what happened: a line in the status bar, or a message box that does not wait."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QStatusBar, QWidget

from studio.ui import confirm


class Feedback:
    """The status bar and the widget that message boxes and dialogs open over.

    Attributes:
        parent: the widget dialogs are opened over (the main window).
    """

    def __init__(self, parent: QWidget, status_bar: QStatusBar) -> None:
        self.parent = parent
        self._status_bar = status_bar

    def status(self, text: str, timeout_ms: int = 8000) -> None:
        self._status_bar.showMessage(text, timeout_ms)

    def tell(self, title: str, text: str) -> QMessageBox:
        """Show a message without waiting for it (the user closes it when done reading)."""
        box = confirm.information(self.parent, title, text)
        box.open()
        return box

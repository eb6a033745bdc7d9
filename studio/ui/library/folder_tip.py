"""The selected skill's folder in the window's status bar, as a hovered row's is."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QStatusTipEvent
from PySide6.QtWidgets import QApplication, QTreeView, QWidget

from studio.ui.library.library_rows import KIND_ROLE


class FolderTip(QObject):
    """Puts the tree's current skill's folder (its status tip) in the status bar, and puts it
    back when the mouse leaves the tree, since leaving clears the hovered row's."""

    def __init__(self, tree: QTreeView, sender: QWidget) -> None:
        super().__init__(sender)
        self._tree = tree
        self._sender = sender
        tree.viewport().installEventFilter(self)

    def show_current(self) -> None:
        current = self._tree.currentIndex()
        if current.data(KIND_ROLE) == "skill":
            tip = QStatusTipEvent(str(current.data(Qt.ItemDataRole.StatusTipRole)))
            QApplication.sendEvent(self._sender, tip)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The view clears the tip after this filter has seen the Leave: come back once it has.
        if watched is self._tree.viewport() and event.type() == QEvent.Type.Leave:
            QTimer.singleShot(0, self, self.show_current)
        return super().eventFilter(watched, event)

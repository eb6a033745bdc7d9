"""Handing the library tree more rows as the user reaches the end of those it shows: scrolled
to the bottom, or with End (and Ctrl+End), which goes to the last row of the library, not of the
rows handed out so far (`library_tree`)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QTreeView

from studio.ui.library.library_filter import LibraryFilter
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_nodes import PAGE, FileNode, Node, SkillNode


def hand_out_page(proxy: LibraryFilter, model: LibraryModel, node: Node) -> None:
    """Have the model hand out the next page of the node's rows; under a filter, rows until a
    page of them show (or none is left), as a page of rows with no match would show nothing."""
    children = node.children
    row = model.shown(node)
    if not proxy.active or isinstance(node, SkillNode | FileNode):
        model.hand_out(node, row + PAGE)
        return
    found = 0
    while row < len(children) and found < PAGE:
        found += proxy.shows(children[row])
        row += 1
    model.hand_out(node, row)


class MoreRows(QObject):
    """Watches `tree`, which shows `model` or `proxy` over it."""

    def __init__(self, tree: QTreeView, proxy: LibraryFilter, model: LibraryModel) -> None:
        super().__init__(tree)
        self._tree = tree
        self._proxy = proxy
        self._model = model
        tree.installEventFilter(self)
        tree.verticalScrollBar().valueChanged.connect(self._on_scrolled)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self._tree and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_End):
            # The view then moves to its last row, the library's.
            self.hand_out_to_end()
        return super().eventFilter(watched, event)

    def _source(self, index: QModelIndex) -> QModelIndex:
        return self._proxy.mapToSource(index) if self._tree.model() is self._proxy else index

    def _on_scrolled(self, value: int) -> None:
        if value < self._tree.verticalScrollBar().maximum():
            return
        # The innermost open row at the bottom with rows to come, as QTreeView asks Qt's
        # fetchMore of.
        view = self._tree.model()
        index = self._tree.indexAt(self._tree.viewport().rect().bottomLeft())
        if not index.isValid():
            count = view.rowCount(QModelIndex())
            index = view.index(count - 1, 0, QModelIndex()) if count else QModelIndex()
        while index.isValid():
            node = self._model.node(self._source(index))
            if self._tree.isExpanded(index) and self._model.more(node):
                hand_out_page(self._proxy, self._model, node)
                return
            index = index.parent()

    def hand_out_to_end(self) -> None:
        """Hand out every row of the last open row at each level, from the top down."""
        view = self._tree.model()
        parent = QModelIndex()
        while True:
            node = self._model.node(self._source(parent))
            while self._model.more(node):
                hand_out_page(self._proxy, self._model, node)
            count = view.rowCount(parent)
            if not count:
                return
            last = view.index(count - 1, 0, parent)
            if not self._tree.isExpanded(last):
                return
            parent = last

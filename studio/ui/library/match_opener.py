"""Opening the roots and repository folders that hold a filter's matches, so the matches show.

`QTreeView.expandToDepth` opened every folder in one turn of the event loop, and each folder it
opened had the proxy judge that folder's skills: 1.2 s on 10,000 skills, and ten times that on
100,000. Instead the roots open at once (their folders show, each with its count of matches)
and the folders open a slice of time at a time on a zero timer, the ones a user sees first
first. A root or folder that comes to hold a match while a scan goes on opens the same way.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QTimer
from PySide6.QtWidgets import QTreeView

from studio.ui.library.filter_judge import SLICE_S
from studio.ui.library.library_filter import LibraryFilter
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_nodes import FolderNode, RootNode
from studio.ui.library.more_rows import hand_out_page


class MatchOpener(QObject):
    """Opens, in `tree`, the rows of `proxy` that hold matches (see the module's docstring)."""

    def __init__(self, tree: QTreeView, proxy: LibraryFilter, model: LibraryModel) -> None:
        super().__init__(tree)
        self._tree = tree
        self._proxy = proxy
        self._model = model
        # Spans of rows to open, the last first: [parent, next row, last row], the parent None
        # for the top level and else persistent, as rows come and go between slices. A span, not
        # an index per row: a root of 11,745 folders made as many persistent indexes in one turn.
        self._pending: list[list[Any]] = []
        # Whether the view still has to lay out the open roots before the first folder opens.
        self._lay_out = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._open_slice)
        proxy.rowsInserted.connect(self._on_proxy_rows_inserted)

    @property
    def opening(self) -> bool:
        """Whether rows wait to be opened on a later turn of the event loop."""
        return bool(self._pending)

    def open_all(self) -> None:
        """Open every root now, then, on later turns of the event loop, every folder under
        them that holds a match."""
        self._pending.clear()
        count = self._proxy.rowCount(QModelIndex())
        for row in range(count):
            # The view lays the rows out later, all at once: this only marks them open.
            index = self._proxy.index(row, 0, QModelIndex())
            self._tree.expand(index)
            self._show_some(index)
        if not self._model.flat and count:
            self._pending = [[None, 0, count - 1]]
            self._lay_out = True
            self._timer.start()

    def _on_proxy_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        """A root or folder that came to hold a match (as a scan brings skills in) opens."""
        if self._tree.model() is not self._proxy:
            return
        # Opened once the view has taken the rows in (it hears of them after this handler).
        self._pending.append([QPersistentModelIndex(parent) if parent.isValid() else None,
                              first, last])
        self._timer.start()

    def _next(self) -> QModelIndex | None:
        """The next row to open, or None when none is left."""
        while self._pending:
            span = self._pending[-1]
            parent, row, last = span
            if row > last or (parent is not None and not parent.isValid()):
                self._pending.pop()
                continue
            span[1] = row + 1
            index = self._proxy.index(row, 0, parent if parent is not None else QModelIndex())
            if index.isValid():
                return index
        return None

    def _show_some(self, index: QModelIndex) -> None:
        """A row opened whose matches all lie beyond the rows the model handed out so far
        (`library_tree`) has the model hand out rows until some show."""
        node = self._model.node(self._proxy.mapToSource(index))
        if not self._proxy.rowCount(index) and self._model.more(node):
            hand_out_page(self._proxy, self._model, node)

    def _open_slice(self) -> None:
        if self._tree.model() is not self._proxy:
            self._pending.clear()
            return
        deadline = time.perf_counter() + SLICE_S
        if self._lay_out:
            # The view lays out the open roots first (unless it did already), on a turn of
            # its own, so that each folder opened after is laid out on its own, not all
            # together on the next paint.
            self._tree.executeDelayedItemsLayout()
            self._lay_out = False
            self._timer.start()
            return
        first = True
        # At least one row a slice, however slow, so the opening ends.
        while first or time.perf_counter() < deadline:
            first = False
            index = self._next()
            if index is None:
                break
            node = self._model.node(self._proxy.mapToSource(index))
            if not isinstance(node, RootNode | FolderNode):
                continue
            self._tree.expand(index)
            self._show_some(index)
            if isinstance(node, RootNode) and not self._model.flat:
                # A root's folders (each a row of the tree with its count of matches), the
                # first on top; its skills are passed over when their turn comes.
                count = self._proxy.rowCount(index)
                if count:
                    self._pending.append([QPersistentModelIndex(index), 0, count - 1])
        if self._pending:
            self._timer.start()

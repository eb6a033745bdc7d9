"""The library tree's rows as Qt's item model sees them: index, parent and row counts over light
nodes (`library_nodes`), each skill's files fetched when it is expanded. `LibraryModel` fills
the nodes from the library's events."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QTimer, Signal

from studio.skills import SkillSummary
from studio.skills.scan import listing
from studio.ui.indexes import NO_PARENT, Index
from studio.ui.library.library_nodes import Node, RootNode, SkillNode, file_tree


class NodeTree(QAbstractItemModel):
    """Qt's model interface over a tree of nodes under an invisible `_root`.

    Attributes:
        flat: each root lists its skills in one list sorted by name.

    Signals:
        files_requested: (SkillSummary) a skill was expanded: list its files and hand them to
            `set_files`.
    """

    files_requested = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = Node(None, 0)
        self._by_directory: dict[Path, SkillNode] = {}
        self.flat = False
        # A flat root whose skills' rows are not renumbered yet (while a batch goes in).
        self._stale: Node | None = None

    def node(self, index: Index) -> Node:
        # Called hundreds of thousands of times while a big library loads: kept minimal.
        node: Node = index.internalPointer() if index.isValid() else self._root
        return node

    def index_of(self, node: Node, column: int = 0) -> QModelIndex:
        if self._stale is not None and node.parent is self._stale:
            self._renumber_stale()
        if node is self._root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, column, node)

    def skill_index(self, directory: Path) -> QModelIndex:
        node = self._by_directory.get(directory)
        return self.index_of(node) if node is not None else QModelIndex()

    # -- Qt's model interface --------------------------------------------------------------------
    # No `flags`: Qt's own answers what ours did (enabled and selectable), in C++. The view asks
    # it twice of every row it lays out, and each answer from Python cost a crossing and an enum
    # conversion: opening a root of 12,000 folders took 5.7 times as long with it.

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        children = (parent.internalPointer() if parent.isValid() else self._root).children
        if column or not 0 <= row < len(children):
            return QModelIndex()
        return self.createIndex(row, 0, children[row])

    def parent(self, index: Index = NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        if parent is None or parent is self._root:
            return QModelIndex()
        if self._stale is not None and parent.parent is self._stale:
            self._renumber_stale()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return 1

    def hasChildren(self, parent: Index = NO_PARENT) -> bool:
        # Asked of every row a view lays out (11,745 of them when a root of the 100,000-skill
        # collection opens): `node` inlined.
        node: Node = parent.internalPointer() if parent.isValid() else self._root
        if isinstance(node, SkillNode) and not node.fetched:
            return True
        return bool(node.children)

    def canFetchMore(self, parent: Index) -> bool:
        node = self.node(parent)
        return isinstance(node, SkillNode) and not node.fetched

    def fetchMore(self, parent: Index) -> None:
        node = self.node(parent)
        if not isinstance(node, SkillNode) or node.fetched or node.summary is None:
            return
        node.fetched = True
        summary = node.summary
        # Asked on the next turn of the event loop: views (and Qt's model tester) ask for more
        # while they handle rowsInserted, and inserting rows from inside that is not allowed.
        QTimer.singleShot(0, self, lambda: self.files_requested.emit(summary))

    def set_files(self, summary: SkillSummary, entries: list[listing.Entry]) -> None:
        """Show the files of an expanded skill (ignored if the skill changed meanwhile)."""
        node = self._by_directory.get(summary.directory)
        if node is None or node.summary is not summary or node.children or not entries:
            return
        children = file_tree(summary, entries, node)
        self.beginInsertRows(self.index_of(node), 0, len(children) - 1)
        node.children = children
        self.endInsertRows()

    def _changed(self, node: Node) -> None:
        index = self.index_of(node)
        self.dataChanged.emit(index, index)

    def _root_of(self, node: Node) -> RootNode:
        while not isinstance(node, RootNode):
            assert node.parent is not None
            node = node.parent
        return node

    def _renumber_stale(self) -> None:
        stale, self._stale = self._stale, None
        if stale is not None:
            self._renumber(stale)

    @staticmethod
    def _renumber(node: Node) -> None:
        for row, child in enumerate(node.children):
            child.row = row

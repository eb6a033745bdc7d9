"""The library tree's rows as Qt's item model sees them: index, parent and row counts over light
nodes (`library_nodes`), each skill's files fetched when it is expanded. `LibraryModel` fills
the nodes from the library's events.

A parent hands the views its rows a page at a time (`PAGE`): a view lays out, in one turn of
the event loop, every row of an open parent it was handed, and a root of the 100,000-skill
collection holds 11,745 folders. The rows handed out are always the first ones (`Node.limit`);
a row that comes or goes beyond them is not announced to the views with Qt's signals but with
`quiet_rows_inserted` and `quiet_rows_removing`, for those (the library filter) that count
every skill. More are handed out as the user scrolls to the end (`more_rows`), not through Qt's
`canFetchMore`: a tree view asks an open parent for more each time it lays itself out, and the
rows it gets make it lay itself out again, so the pages went out one a turn until none was left.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QTimer, Signal

from studio.skills import SkillSummary
from studio.skills.scan import listing
from studio.ui.indexes import NO_PARENT, Index
from studio.ui.library.library_nodes import PAGE, Node, RootNode, SkillNode, file_tree


class NodeTree(QAbstractItemModel):
    """Qt's model interface over a tree of nodes under an invisible `_root`.

    Attributes:
        flat: each root lists its skills in one list sorted by name.
        handing_out: rows are being handed out (`hand_out`): the rows Qt's signals announce
            now were in the model before.

    Signals:
        files_requested: (SkillSummary) a skill was expanded: list its files and hand them to
            `set_files`.
        quiet_rows_inserted: (Node, first, last) children of the node came in beyond the rows
            handed out, rows first to last of its `children`.
        quiet_rows_removing: (Node, first, last) children of the node beyond the rows handed
            out are about to go.
    """

    files_requested = Signal(object)
    quiet_rows_inserted = Signal(object, int, int)
    quiet_rows_removing = Signal(object, int, int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = Node(None, 0)
        self._by_directory: dict[Path, SkillNode] = {}
        self.flat = False
        # A flat root whose skills' rows are not renumbered yet (while a batch goes in).
        self._stale: Node | None = None
        self.handing_out = False

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
        """The skill's index, its row and its folder's handed out first (`hand_out`)."""
        node = self._by_directory.get(directory)
        if node is None:
            return QModelIndex()
        self.reveal(node)
        return self.index_of(node)

    @staticmethod
    def shown(node: Node) -> int:
        """How many of the node's children the views were handed."""
        return min(len(node.children), node.limit)

    def handed(self, node: Node) -> bool:
        """Whether the views were handed the node's row, and its parent's, up to the top."""
        parent = node.parent
        while parent is not None:
            if parent is self._stale:
                self._renumber_stale()
            if node.row >= min(len(parent.children), parent.limit):
                return False
            node, parent = parent, parent.parent
        return True

    def reveal(self, node: Node) -> None:
        """Hand out the rows up to the node's, and its parent's, from the top down (to select a
        skill beyond the rows the views have, found by Quick Open, Problems or a search)."""
        if self._stale is not None:
            self._renumber_stale()
        path: list[Node] = []
        while node.parent is not None:
            path.append(node)
            node = node.parent
        for found in reversed(path):
            assert found.parent is not None
            if found.row >= self.shown(found.parent):
                self.hand_out(found.parent, found.row + 1)

    def hand_out(self, node: Node, count: int) -> None:
        """Hand the views the node's first `count` children (at least), whole pages of them."""
        first = self.shown(node)
        last = min(len(node.children), -(-count // PAGE) * PAGE) - 1
        if last < first:
            return
        self.handing_out = True
        try:
            self.beginInsertRows(self.index_of(node), first, last)
            node.limit = last + 1
            self.endInsertRows()
        finally:
            self.handing_out = False

    @staticmethod
    def more(node: Node) -> bool:
        """Whether the node has children not handed out yet."""
        return len(node.children) > node.limit

    # -- Qt's model interface --------------------------------------------------------------------
    # No `flags`: Qt's own answers what ours did (enabled and selectable), in C++. The view asks
    # it twice of every row it lays out, and each answer from Python cost a crossing and an enum
    # conversion: opening a root of 12,000 folders took 5.7 times as long with it.

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        node: Node = parent.internalPointer() if parent.isValid() else self._root
        children = node.children
        if column or not 0 <= row < min(len(children), node.limit):
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
        node = self.node(parent)
        return min(len(node.children), node.limit)

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
        self._insert_rows(node, 0, file_tree(summary, entries, node))

    def announce(self, nodes: Sequence[Node]) -> None:
        """Emit dataChanged over the rows of `nodes`, one span per parent (the rows the views
        were not handed left out: they are asked about when they are)."""
        spans: dict[Node, tuple[QModelIndex, QModelIndex]] = {}
        for node in nodes:
            if node.parent is None or not self.handed(node):
                continue
            index = self.index_of(node)
            known = spans.get(node.parent)
            if known is None:
                spans[node.parent] = (index, index)
            else:
                first, last = known
                spans[node.parent] = (index if index.row() < first.row() else first,
                                      index if index.row() > last.row() else last)
        for first, last in spans.values():
            self.dataChanged.emit(first, last)

    def _changed(self, node: Node) -> None:
        if not self.handed(node):
            return
        index = self.index_of(node)
        self.dataChanged.emit(index, index)

    # -- rows coming and going, told to the views only among those handed out --------------------

    def _insert_rows(self, parent: Node, row: int, nodes: list[Node]) -> None:
        """Put `nodes` among the parent's children at `row` (their `row`s are the caller's to
        set). Rows among those handed out stay so; rows after them fill the page. Under a row
        the views were not handed, nothing is told them: they ask when they get that row."""
        if not nodes:
            return
        children = parent.children
        count = len(nodes)
        handed = min(len(children), parent.limit)
        # Among the rows handed out, they are handed out too; after them, as many as fill the
        # page; else none.
        among = row < handed
        if among:
            told = count
        elif row == len(children) < parent.limit:
            told = min(count, parent.limit - row)
        else:
            told = 0
        if told and self.handed(parent):
            self.beginInsertRows(self.index_of(parent), row, row + told - 1)
            children[row:row] = nodes
            parent.limit += count if among else 0
            self.endInsertRows()
        else:
            told = 0
            children[row:row] = nodes
            parent.limit += count if among else 0
        if told < count:
            self.quiet_rows_inserted.emit(parent, row + told, row + count - 1)

    def _remove_row(self, parent: Node, row: int) -> None:
        """Take the parent's child at `row` out (the rows after it are renumbered)."""
        children = parent.children
        told = row < min(len(children), parent.limit) and self.handed(parent)
        if told:
            self.beginRemoveRows(self.index_of(parent), row, row)
        else:
            self.quiet_rows_removing.emit(parent, row, row)
        if row < parent.limit <= len(children) - 1:
            # The first row beyond those handed out moves up among them: it is not the views'.
            parent.limit -= 1
        del children[row]
        self._renumber(parent)
        if told:
            self.endRemoveRows()

    def _remove_all(self, parent: Node) -> None:
        """Take all the parent's children out; its next rows are handed out a page at a time."""
        children = parent.children
        handed = min(len(children), parent.limit) if self.handed(parent) else 0
        if handed < len(children):
            self.quiet_rows_removing.emit(parent, handed, len(children) - 1)
        if handed:
            self.beginRemoveRows(self.index_of(parent), 0, handed - 1)
        parent.children = []
        parent.limit = PAGE
        if handed:
            self.endRemoveRows()

    def _move_row(self, parent: Node, row: int, place: int) -> None:
        """Move the parent's child at `row` to `place` (as `beginMoveRows` counts it)."""
        children = parent.children
        handed = min(len(children), parent.limit)
        if row < handed and place <= handed and self.handed(parent):
            index = self.index_of(parent)
            self.beginMoveRows(index, row, row, index, place)
            node = children.pop(row)
            children.insert(place - 1 if place > row else place, node)
            self._renumber(parent)
            self.endMoveRows()
            return
        node = children[row]
        self._remove_row(parent, row)
        self._insert_rows(parent, place - 1 if place > row else place, [node])
        self._renumber(parent)

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

"""The library tree: roots, their skills, and each skill's files, adapting the core `Library`.

The model keeps no state of its own beyond a light node per row: it turns the `Library`'s events
into `beginInsertRows`/`endInsertRows`, `beginRemoveRows`/`endRemoveRows` and `dataChanged`
(napari's pattern). Skills directly in a root are its children; skills nested deeper sit under
one node per folder that holds them (labelled by its path from the root), as on disk, so no level
holds thousands of rows unless the disk does. A skill's files are listed only when it is
expanded, and not by the model: it asks (`files_requested`) and is answered with `set_files`, so
it reads no disk or archive itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
)

from studio.skills.install import Provenance
from studio.skills.library import (
    Entry,
    Library,
    LibraryEvent,
    RootAdded,
    RootChanged,
    RootRemoved,
    SkillChanged,
    SkillsAdded,
    SkillsRemoved,
    SkillsReplaced,
    SkillSummary,
    TargetChanged,
)
from studio.ui.indexes import NO_PARENT, Index
from studio.ui.library.library_nodes import FileNode, FolderNode, Node, RootNode, SkillNode, file_tree
from studio.ui.library.library_rows import (
    ITEM_FLAGS,
    NO_FLAGS,
    file_data,
    filter_text,
    folder_data,
    root_data,
    root_labels,
    skill_data,
)


class LibraryModel(QAbstractItemModel):
    """Roots -> skills -> files, over a core `Library`.

    Signals:
        files_requested: (SkillSummary) a skill was expanded: list its files and hand them to
            `set_files`.
        skills_changed: (int) skills were added, removed or changed; carries the library's count.
    """

    files_requested = Signal(object)
    skills_changed = Signal(int)

    def __init__(self, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.provenance = Provenance()
        self._root = Node(None, 0)
        self._by_directory: dict[Path, SkillNode] = {}
        self._labels: dict[Path, str] | None = None
        for row, state in enumerate(library.roots()):
            self._on_library_event(RootAdded(row, state.root))
            self._on_library_event(SkillsAdded(state.path, 0, tuple(state.skills)))
        library.connect(self._on_library_event)

    # -- reading -------------------------------------------------------------------------------

    @property
    def skill_count(self) -> int:
        return self.library.skill_count

    def roots(self) -> list[RootNode]:
        return [node for node in self._root.children if isinstance(node, RootNode)]

    def root_node(self, path: Path) -> RootNode | None:
        row = self.library.root_row(path)
        if row < 0:
            return None
        node = self._root.children[row]
        assert isinstance(node, RootNode)
        return node

    def node(self, index: Index) -> Node:
        # Called hundreds of thousands of times while a big library loads: kept minimal.
        node: Node = index.internalPointer() if index.isValid() else self._root
        return node

    def index_of(self, node: Node, column: int = 0) -> QModelIndex:
        if node is self._root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, column, node)

    def skill_index(self, directory: Path) -> QModelIndex:
        node = self._by_directory.get(directory)
        return self.index_of(node) if node is not None else QModelIndex()

    # -- Qt's model interface --------------------------------------------------------------------

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
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return 1

    def hasChildren(self, parent: Index = NO_PARENT) -> bool:
        node = self.node(parent)
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

    def set_files(self, summary: SkillSummary, entries: list[Entry]) -> None:
        """Show the files of an expanded skill (ignored if the skill changed meanwhile)."""
        node = self._by_directory.get(summary.directory)
        if node is None or node.summary is not summary or node.children or not entries:
            return
        children = file_tree(summary, entries, node)
        self.beginInsertRows(self.index_of(node), 0, len(children) - 1)
        node.children = children
        self.endInsertRows()

    def flags(self, index: Index) -> Qt.ItemFlag:
        return ITEM_FLAGS if index.isValid() else NO_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        if isinstance(node, SkillNode):
            assert node.summary is not None
            return skill_data(node.summary, role, self.provenance)
        if isinstance(node, RootNode):
            assert node.state is not None
            return root_data(node.state, role, self.root_label(node.state.path))
        if isinstance(node, FileNode):
            return file_data(node, role)
        if isinstance(node, FolderNode):
            return folder_data(node, role)
        return None

    def root_label(self, path: Path) -> str:
        """The root's name as the tree shows it (see `root_labels`)."""
        if self._labels is None:
            paths = [state.path for state in self.library.roots()]
            self._labels = dict(zip(paths, root_labels(paths), strict=True))
        return self._labels.get(path, path.name or str(path))

    def filter_text_of(self, summary: SkillSummary) -> str:
        return filter_text(summary, self.provenance.origin(summary))


    def _on_library_event(self, event: LibraryEvent) -> None:
        if isinstance(event, SkillsAdded):
            self._add_skills(event.root, event.summaries)
        elif isinstance(event, SkillChanged):
            self._change_skill(event.old, event.new)
        elif isinstance(event, SkillsReplaced):
            self._replace_skills(event.old, event.new)
        elif isinstance(event, SkillsRemoved):
            self._remove_skills(event.root, event.summaries)
        elif isinstance(event, RootChanged | TargetChanged):
            self._changed(self._root.children[event.row])
            return
        elif isinstance(event, RootAdded | RootRemoved):
            if isinstance(event, RootAdded):
                self._add_root(event.row)
            else:
                self._remove_root(event.row, event.skills)
            # Another root's name may need more of its path now, or less.
            self._labels = None
            for node in self._root.children:
                self._changed(node)
        else:
            return
        self.skills_changed.emit(self.library.skill_count)

    def _changed(self, node: Node) -> None:
        index = self.index_of(node)
        self.dataChanged.emit(index, index)

    def _add_root(self, row: int) -> None:
        node = RootNode(self._root, row, state=self.library.roots()[row])
        self.beginInsertRows(QModelIndex(), row, row)
        self._root.children.insert(row, node)
        self._renumber(self._root)
        self.endInsertRows()

    def _remove_root(self, row: int, skills: tuple[SkillSummary, ...]) -> None:
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._root.children[row]
        self._renumber(self._root)
        for summary in skills:
            self._by_directory.pop(summary.directory, None)
        self.endRemoveRows()

    def _folder_key(self, root: RootNode, summary: SkillSummary) -> str:
        """The folder, relative to the root, that holds the skill ("" when the root itself does)."""
        # On strings: pathlib's relative_to, for every skill of a batch, was a third of the
        # tree's share of a loader tick.
        parent = os.path.dirname(str(summary.directory))
        base = str(root.path).rstrip(os.sep)
        if not parent.startswith(base + os.sep) or summary.directory == root.path:
            return ""
        return parent[len(base) + 1:].replace(os.sep, "/")

    def _add_skills(self, path: Path, summaries: tuple[SkillSummary, ...]) -> None:
        root = self.root_node(path)
        if root is None:
            return
        groups: dict[str, list[SkillSummary]] = {}
        for summary in summaries:
            groups.setdefault(self._folder_key(root, summary), []).append(summary)
        new_folders = [key for key in groups if key and key not in root.folders]
        if new_folders:
            first = len(root.children)
            self.beginInsertRows(self.index_of(root), first, first + len(new_folders) - 1)
            for offset, key in enumerate(new_folders):
                folder = FolderNode(root, first + offset, relative=key, root=root)
                root.folders[key] = folder
                root.children.append(folder)
            self.endInsertRows()
        for key, group in groups.items():
            parent: Node = root.folders[key] if key else root
            first = len(parent.children)
            self.beginInsertRows(self.index_of(parent), first, first + len(group) - 1)
            for offset, summary in enumerate(group):
                skill = SkillNode(parent, first + offset, summary=summary)
                parent.children.append(skill)
                self._by_directory[summary.directory] = skill
            self.endInsertRows()
            if key:
                self._changed(parent)
        self._changed(root)

    def _root_of(self, node: Node) -> RootNode:
        while not isinstance(node, RootNode):
            assert node.parent is not None
            node = node.parent
        return node

    def _change_skill(self, old: SkillSummary, new: SkillSummary) -> None:
        node = self._by_directory.pop(old.directory, None)
        if node is None:
            return
        self._by_directory[new.directory] = node
        node.summary = new
        if node.children:
            self.beginRemoveRows(self.index_of(node), 0, len(node.children) - 1)
            node.children = []
            self.endRemoveRows()
        node.fetched = False
        self._changed(node)
        self._ancestors_changed([node])
        if old.directory != new.directory:
            self._move_to_its_place(node)

    def _move_to_its_place(self, node: SkillNode) -> None:
        """After a rename: move the skill among its sibling skills to where its new folder name
        sorts (the scan lists folders by name; nested folders keep their places)."""
        parent = node.parent
        if parent is None:
            return
        assert node.summary is not None
        key = node.summary.directory.name
        siblings = parent.children
        skills = [(row, sibling.summary.directory.name) for row, sibling in enumerate(siblings)
                  if sibling is not node and isinstance(sibling, SkillNode)
                  and sibling.summary is not None]
        place = next((row for row, name in skills if name > key),
                     skills[-1][0] + 1 if skills else node.row)
        if place in (node.row, node.row + 1):
            return
        index = self.index_of(parent)
        self.beginMoveRows(index, node.row, node.row, index, place)
        del siblings[node.row]
        siblings.insert(place - 1 if place > node.row else place, node)
        self._renumber(parent)
        self.endMoveRows()

    def _ancestors_changed(self, nodes: list[Node]) -> None:
        """Tell the views (the filter above all: whether a folder or root still holds a match)
        that the folders and roots holding `nodes` changed, each once, innermost first."""
        seen: set[int] = set()
        ancestors: list[Node] = []
        for node in nodes:
            parent = node.parent
            while parent is not None and parent is not self._root and id(parent) not in seen:
                seen.add(id(parent))
                ancestors.append(parent)
                parent = parent.parent
        for ancestor in sorted(ancestors, key=lambda found: isinstance(found, RootNode)):
            self._changed(ancestor)

    def _replace_skills(self, old: tuple[SkillSummary, ...],
                        new: tuple[SkillSummary, ...]) -> None:
        """Skills judged again in place: one dataChanged per parent for the whole batch."""
        spans: dict[int, tuple[Node, int, int]] = {}
        for before, after in zip(old, new, strict=True):
            node = self._by_directory.get(before.directory)
            if node is None or node.parent is None:
                continue
            node.summary = after
            if node.children:
                self.beginRemoveRows(self.index_of(node), 0, len(node.children) - 1)
                node.children = []
                self.endRemoveRows()
            node.fetched = False
            parent = node.parent
            first, last = spans.get(id(parent), (parent, node.row, node.row))[1:]
            spans[id(parent)] = (parent, min(first, node.row), max(last, node.row))
        for parent, first, last in spans.values():
            top = self.index(first, 0, self.index_of(parent))
            self.dataChanged.emit(top, top.siblingAtRow(last))
        self._ancestors_changed([parent.children[first] for parent, first, _ in spans.values()])

    def _remove_skills(self, path: Path, summaries: tuple[SkillSummary, ...]) -> None:
        root = self.root_node(path)
        if root is None:
            return
        assert root.state is not None
        if not root.state.skills:
            self._clear(root, summaries)
            return
        for summary in summaries:
            self._remove_skill(root, summary.directory)
        self._changed(root)

    def _clear(self, root: RootNode, summaries: tuple[SkillSummary, ...]) -> None:
        for summary in summaries:
            self._by_directory.pop(summary.directory, None)
        if root.children:
            self.beginRemoveRows(self.index_of(root), 0, len(root.children) - 1)
            root.children = []
            root.folders = {}
            self.endRemoveRows()
        self._changed(root)

    def _remove_skill(self, root: RootNode, directory: Path) -> None:
        node = self._by_directory.pop(directory, None)
        if node is None or node.parent is None:
            return
        parent = node.parent
        removed: Node = node
        if isinstance(parent, FolderNode) and len(parent.children) == 1:
            removed, parent = parent, root
            del root.folders[removed.relative]
        self.beginRemoveRows(self.index_of(parent), removed.row, removed.row)
        del parent.children[removed.row]
        self._renumber(parent)
        self.endRemoveRows()
        if parent is not root:
            self._changed(parent)

    @staticmethod
    def _renumber(node: Node) -> None:
        for row, child in enumerate(node.children):
            child.row = row

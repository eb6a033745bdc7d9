"""The library tree: roots, their skills, and each skill's files, adapting the core `Library`.

The model keeps no state of its own beyond a light node per row: it turns the `Library`'s events
into `beginInsertRows`/`endInsertRows`, `beginRemoveRows`/`endRemoveRows` and `dataChanged`
(napari's pattern). Skills directly in a root are its children; skills nested deeper sit under
their repository's `owner--repo` folder, however deep (else the first folder below the root
that holds them: `library_places.place_of`), or, in the flat
view, every skill of a root is its child, sorted by name (`library_places`). A skill's files are
listed only when it is expanded, and not by the model: it asks (`files_requested`) and is
answered with `set_files`, so it reads no disk or archive itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    Qt,
    Signal,
)

from studio.skills import SkillSummary
from studio.skills.install import Provenance
from studio.skills.library import Library, events
from studio.ui.indexes import Index
from studio.ui.library.library_nodes import (
    PAGE,
    FileNode,
    FolderNode,
    Node,
    RootNode,
    SkillNode,
)
from studio.ui.library.library_places import (
    count_name,
    detail,
    flat_key,
    group_of,
    lay_out,
    move_to,
    place_of,
    row_runs,
    same_name,
    shares_name,
    sorted_runs,
    with_place,
)
from studio.ui.library.library_rows import (
    DETAIL_ROLE,
    SHARED_ROLE,
    TOOLTIP,
    file_data,
    filter_text,
    folder_data,
    root_data,
    root_labels,
    skill_data,
)
from studio.ui.library.library_tree import NodeTree

# A dataChanged over a range of rows costs the views about as much as 30 rows cost one of
# their own (measured: 1.7 ms over 361 rows, 0.15 ms for one row). The forks a scan's end
# marks (SK301) lie scattered over a repository's rows: one range over them all cost half as
# much again as before the tree grouped by repository.
ROW_GAP = 30


class LibraryModel(NodeTree):
    """Roots -> repository folders -> skills -> files, over a core `Library`; `set_flat` lists
    each root's skills in one list sorted by name instead.

    Signals:
        skills_changed: (int) skills were added, removed or changed; carries the library's count.
    """

    skills_changed = Signal(int)

    def __init__(self, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.provenance = Provenance()
        self._labels: dict[Path, str] | None = None
        for row, state in enumerate(library.roots()):
            self._on_library_event(events.RootAdded(row, state.root))
            self._on_library_event(events.SkillsAdded(state.path, 0, tuple(state.skills)))
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

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        if isinstance(node, SkillNode):
            assert node.summary is not None
            if role == DETAIL_ROLE:
                return detail(self._root_of(node), node, self.flat)
            if role == SHARED_ROLE:
                return shares_name(self._root_of(node), node, index.row(), self.flat)
            if role == TOOLTIP:
                return with_place(skill_data(node.summary, role, self.provenance), node)
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

    def set_flat(self, flat: bool) -> None:
        """Show each root's skills in one list sorted by name (True), or under their
        repository folders; the tree is laid out again (rows collapse)."""
        if flat == self.flat:
            return
        self.beginResetModel()
        self.flat = flat
        for root in self.roots():
            assert root.state is not None
            nodes = [self._skill_node(root, summary) for summary in root.state.skills]
            lay_out(root, nodes, flat)
            root.limit = PAGE
        self.endResetModel()

    def _on_library_event(self, event: events.LibraryEvent) -> None:
        if isinstance(event, events.SkillsAdded):
            self._add_skills(event.root, event.summaries)
        elif isinstance(event, events.SkillChanged):
            self._change_skill(event.old, event.new)
        elif isinstance(event, events.SkillsReplaced):
            self._replace_skills(event.root, event.old, event.new)
        elif isinstance(event, events.SkillsRemoved):
            self._remove_skills(event.root, event.summaries)
        elif isinstance(event, events.RootChanged | events.TargetChanged):
            self._changed(self._root.children[event.row])
            return
        elif isinstance(event, events.RootAdded | events.RootRemoved):
            if isinstance(event, events.RootAdded):
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

    def _skill_node(self, root: RootNode, summary: SkillSummary) -> SkillNode:
        """A node for the skill, known by its folder, placed nowhere yet."""
        group, inner = place_of(str(root.path).rstrip(os.sep) + os.sep, str(summary.directory))
        node = SkillNode(None, 0, summary=summary, group=group, inner=inner)
        self._by_directory[summary.directory] = node
        return node

    def _add_skills(self, path: Path, summaries: tuple[SkillSummary, ...]) -> None:
        root = self.root_node(path)
        if root is None:
            return
        nodes = [self._skill_node(root, summary) for summary in summaries]
        shared = [self._name_of(node) for node in nodes if count_name(root, node, 1)]
        if self.flat:
            self._insert_sorted(root, nodes)
        else:
            self._insert_grouped(root, nodes)
        self._names_changed(root, shared)
        self._changed(root)

    @staticmethod
    def _name_of(node: SkillNode) -> tuple[str, str]:
        assert node.summary is not None
        return (node.group, node.summary.display_name)

    def _insert_grouped(self, root: RootNode, nodes: list[SkillNode]) -> None:
        groups: dict[str, list[SkillNode]] = {}
        for node in nodes:
            groups.setdefault(node.group, []).append(node)
        new_folders = [group for group in groups if group and group not in root.folders]
        folders: list[Node] = []
        for group in new_folders:
            folder = group_of(root, group)[0]
            folder.row = len(root.children) + len(folders)
            folders.append(folder)
        self._insert_rows(root, len(root.children), folders)
        for group, members in groups.items():
            parent = group_of(root, group)[0]
            first = len(parent.children)
            for offset, node in enumerate(members):
                node.parent, node.row = parent, first + offset
            self._insert_rows(parent, first, list(members))
            if group:
                self._changed(parent)

    def _insert_sorted(self, root: RootNode, nodes: list[SkillNode]) -> None:
        """Each run of the batch that goes between the same two rows goes in at once; the rows
        after it are renumbered once, at the end (a renumbering per run was quadratic)."""
        nodes.sort(key=flat_key)
        for row, run in sorted_runs(root.children, nodes):
            for node in run:
                node.parent = root
            self._stale = root
            self._insert_rows(root, row, list(run))
        self._renumber_stale()

    def _names_changed(self, root: RootNode, names: list[tuple[str, str]]) -> None:
        """The rows of names (group, name) that came to be shared, or no longer are, say so
        (`detail`)."""
        for group, name in dict.fromkeys(names):
            for found in same_name(root, group, name, self.flat):
                self._changed(found)

    def _rename(self, node: SkillNode, new: SkillSummary, names: list[tuple[str, str]]) -> bool:
        """Give the node its skill's new summary, counting its name out and in (the names whose
        rows say more or less now go into `names`); True when its place may have changed."""
        assert node.summary is not None
        old = node.summary
        root = self._root_of(node)
        renamed = old.display_name != new.display_name
        if renamed and count_name(root, node, -1):
            names.append(self._name_of(node))
        node.summary = new
        if old.directory != new.directory:
            base = str(root.path).rstrip(os.sep) + os.sep
            node.group, node.inner = place_of(base, str(new.directory))
        if renamed and count_name(root, node, 1):
            names.append(self._name_of(node))
        return old.directory != new.directory or (renamed and self.flat)

    def _change_skill(self, old: SkillSummary, new: SkillSummary) -> None:
        node = self._by_directory.pop(old.directory, None)
        if node is None:
            return
        self._by_directory[new.directory] = node
        names: list[tuple[str, str]] = []
        moved = self._rename(node, new, names)
        self._remove_all(node)
        node.fetched = False
        self._changed(node)
        self._ancestors_changed([node])
        if moved:
            self._move_to_its_place(node)
        self._names_changed(self._root_of(node), names)

    def _move_to_its_place(self, node: SkillNode) -> None:
        """After a rename: move the skill among its sibling skills to where it now sorts."""
        parent = node.parent
        if parent is None:
            return
        place = move_to(parent.children, node, self.flat)
        if place in (node.row, node.row + 1):
            return
        self._move_row(parent, node.row, place)

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

    def _replace_skills(self, path: Path, old: tuple[SkillSummary, ...],
                        new: tuple[SkillSummary, ...]) -> None:
        """Skills judged again in place: one dataChanged per run of changed rows of a parent,
        runs less than ROW_GAP rows apart taken as one."""
        changed: dict[int, tuple[Node, list[int]]] = {}
        names: list[tuple[str, str]] = []
        moved: list[SkillNode] = []
        for before, after in zip(old, new, strict=True):
            node = self._by_directory.get(before.directory)
            if node is None or node.parent is None:
                continue
            if self._rename(node, after, names):
                moved.append(node)
            self._remove_all(node)
            node.fetched = False
            changed.setdefault(id(node.parent), (node.parent, []))[1].append(node.row)
        for parent, rows in changed.values():
            # Only the rows the views were handed: they know of no others.
            if not self.handed(parent):
                continue
            index = self.index_of(parent)
            shown = self.shown(parent)
            for first, last in row_runs([row for row in rows if row < shown], ROW_GAP):
                top = self.index(first, 0, index)
                self.dataChanged.emit(top, top.siblingAtRow(last))
        self._ancestors_changed([parent.children[rows[0]] for parent, rows in changed.values()])
        for node in moved:
            self._move_to_its_place(node)
        root = self.root_node(path)
        if names and root is not None:
            self._names_changed(root, names)

    def _remove_skills(self, path: Path, summaries: tuple[SkillSummary, ...]) -> None:
        root = self.root_node(path)
        if root is None:
            return
        assert root.state is not None
        if not root.state.skills:
            self._clear(root, summaries)
            return
        names = [name for summary in summaries for name in self._remove_skill(root, summary.directory)]
        self._names_changed(root, names)
        self._changed(root)

    def _clear(self, root: RootNode, summaries: tuple[SkillSummary, ...]) -> None:
        for summary in summaries:
            self._by_directory.pop(summary.directory, None)
        self._remove_all(root)
        root.folders = {}
        root.names = {}
        self._changed(root)

    def _remove_skill(self, root: RootNode, directory: Path) -> list[tuple[str, str]]:
        """Remove the skill's row (and its folder's when it was the last), returning its name
        if the rows of that name say less now."""
        node = self._by_directory.pop(directory, None)
        if node is None or node.parent is None:
            return []
        shared = [self._name_of(node)] if count_name(root, node, -1) else []
        parent = node.parent
        removed: Node = node
        if isinstance(parent, FolderNode) and len(parent.children) == 1:
            removed, parent = parent, root
            del root.folders[removed.relative]
        self._remove_row(parent, removed.row)
        if parent is not root:
            self._changed(parent)
        return shared

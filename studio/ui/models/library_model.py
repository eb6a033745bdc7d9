"""The library tree: roots, their skills, and each skill's files, over the core's `RootScan`s.

Skills directly in a root are its children; skills nested deeper sit under one node per folder
that holds them (labelled by its path from the root), as on disk, so no level holds thousands of
rows unless the disk does. The model holds the scans themselves (their `skills` lists grow as
scanning reports skills) and a light node per row that points at the core object it shows. A
skill's files are listed only when the skill is expanded, so a library of 10,000 skills costs one
node per skill.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import QApplication, QStyle

from studio.skills.files import list_skill_files, zip_skill_dirs
from studio.skills.library import RootScan, SkillRoot
from studio.skills.model import SKILL_FILE
from studio.skills.summary import SkillSummary
from studio.ui.icons import STATUS_TOOLTIPS, status_icon
from studio.ui.models.indexes import NO_PARENT, Index

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 2
PATH_ROLE = Qt.ItemDataRole.UserRole + 3
FILTER_ROLE = Qt.ItemDataRole.UserRole + 4

STANDARD_FOLDERS = ("scripts", "references", "assets")

# Computed once: combining Qt's enum flags in Python is slow, and views ask for every row.
ITEM_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
NO_FLAGS = Qt.ItemFlag.NoItemFlags
DISPLAY = Qt.ItemDataRole.DisplayRole
DECORATION = Qt.ItemDataRole.DecorationRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole


@dataclass(eq=False, slots=True)
class Node:
    parent: Node | None
    row: int
    children: list[Node] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class RootNode(Node):
    scan: RootScan = field(default_factory=lambda: RootScan(SkillRoot(Path())))
    scanning: bool = False
    folders: dict[str, FolderNode] = field(default_factory=dict)


@dataclass(eq=False, slots=True)
class FolderNode(Node):
    """A folder between a root and the skills nested in it, e.g. `plugins/pdf/skills`."""

    relative: str = ""
    root: RootNode | None = None


@dataclass(eq=False, slots=True)
class SkillNode(Node):
    summary: SkillSummary | None = None
    fetched: bool = False


@dataclass(eq=False, slots=True)
class FileNode(Node):
    relative: PurePosixPath = field(default_factory=PurePosixPath)
    is_dir: bool = False
    skill: SkillNode | None = None


def _file_tree(summary: SkillSummary, skill: SkillNode) -> list[Node]:
    """SKILL.md first, then the standard folders, then everything else, as nested nodes."""
    if summary.read_only:
        relatives = _zip_listing(summary)
    else:
        relatives = [(file.path, False) for file in list_skill_files(summary.directory)]
    skill_file = PurePosixPath(summary.skill_file.name or SKILL_FILE)
    top = Node(None, 0)
    top.children.append(FileNode(skill, 0, relative=skill_file, skill=skill))
    folders: dict[PurePosixPath, Node] = {PurePosixPath("."): top}

    def folder_node(relative: PurePosixPath) -> Node:
        found = folders.get(relative)
        if found is None:
            parent = folder_node(relative.parent)
            found = FileNode(parent, 0, relative=relative, is_dir=True, skill=skill)
            folders[relative] = found
            parent.children.append(found)
        return found

    if not summary.read_only:
        for name in STANDARD_FOLDERS:
            if (summary.directory / name).is_dir():
                folder_node(PurePosixPath(name))
    for relative, is_dir in relatives:
        if relative == skill_file:
            continue
        if is_dir:
            folder_node(relative)
            continue
        parent = folder_node(relative.parent)
        parent.children.append(FileNode(parent, 0, relative=relative, skill=skill))
    for child in top.children:
        child.parent = skill
    _order(top.children)
    return top.children


def _order(nodes: list[Node]) -> None:
    def key(node: Node) -> tuple[int, str]:
        assert isinstance(node, FileNode)
        if node.relative.name in (SKILL_FILE, SKILL_FILE.lower()) and node.relative.parent.name == "":
            return (0, "")
        standard = node.is_dir and node.relative.name in STANDARD_FOLDERS
        return (1 if standard else 2 if node.is_dir else 3,
                f"{STANDARD_FOLDERS.index(node.relative.name):02d}" if standard
                else node.relative.name.lower())

    nodes.sort(key=key)
    for row, node in enumerate(nodes):
        node.row = row
        if node.children:
            _order(node.children)


def _zip_listing(summary: SkillSummary) -> list[tuple[PurePosixPath, bool]]:
    """The members of a zipped skill, leaving out skills nested inside it."""
    archive_path = summary.root
    inside = (summary.directory.relative_to(archive_path).as_posix()
              if summary.directory != archive_path else ".")
    prefix = "" if inside == "." else inside + "/"
    found: list[tuple[PurePosixPath, bool]] = []
    try:
        with zipfile.ZipFile(archive_path) as archive:
            nested = [d + "/" for d in zip_skill_dirs(archive)
                      if d != inside and d != "." and d.startswith(prefix)]
            for name in archive.namelist():
                if not name.startswith(prefix) or name == prefix:
                    continue
                if any(name.startswith(other) for other in nested):
                    continue
                relative = name[len(prefix):]
                found.append((PurePosixPath(relative.rstrip("/")), relative.endswith("/")))
    except (OSError, zipfile.BadZipFile):
        return []
    return found


class LibraryModel(QAbstractItemModel):
    """Roots -> skills -> files.

    Signals:
        skills_added: skills were appended; carries the library's new skill count.
    """

    skills_added = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = Node(None, 0)
        self._by_directory: dict[Path, SkillNode] = {}
        self._skill_count = 0

    # -- reading -------------------------------------------------------------------------------

    @property
    def skill_count(self) -> int:
        return self._skill_count

    def roots(self) -> list[RootNode]:
        return [node for node in self._root.children if isinstance(node, RootNode)]

    def scans(self) -> list[RootScan]:
        return [node.scan for node in self.roots()]

    def summaries(self) -> list[SkillSummary]:
        return [summary for scan in self.scans() for summary in scan.skills]

    def summary_for(self, directory: Path) -> SkillSummary | None:
        node = self._by_directory.get(directory)
        return node.summary if node is not None else None

    def root_node(self, path: Path) -> RootNode | None:
        for node in self.roots():
            if node.scan.root.path == path:
                return node
        return None

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
        # Listed on the next turn of the event loop: views (and Qt's model tester) ask for more
        # while they handle rowsInserted, and inserting rows from inside that is not allowed.
        QTimer.singleShot(0, self, lambda: self._list_files(node))

    def _list_files(self, node: SkillNode) -> None:
        if node.summary is None or node.children or not self._attached(node):
            return
        children = _file_tree(node.summary, node)
        if not children:
            return
        self.beginInsertRows(self.index_of(node), 0, len(children) - 1)
        node.children = children
        self.endInsertRows()

    def _attached(self, node: Node) -> bool:
        """Whether the node is still in the tree (it may have been removed meanwhile)."""
        while node.parent is not None:
            siblings = node.parent.children
            if node.row >= len(siblings) or siblings[node.row] is not node:
                return False
            node = node.parent
        return node is self._root

    def flags(self, index: Index) -> Qt.ItemFlag:
        return ITEM_FLAGS if index.isValid() else NO_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        if isinstance(node, SkillNode):
            return self._skill_data(node, role)
        if isinstance(node, RootNode):
            return self._root_data(node, role)
        if isinstance(node, FileNode):
            return self._file_data(node, role)
        if isinstance(node, FolderNode):
            return self._folder_data(node, role)
        return None

    def _skill_data(self, node: SkillNode, role: int) -> Any:
        summary = node.summary
        assert summary is not None
        if role == DISPLAY:
            return summary.display_name
        if role == DECORATION:
            return status_icon(summary.status)
        if role == TOOLTIP:
            problem = summary.first_problem
            lines = [f"<b>{_escape(summary.display_name)}</b> — {STATUS_TOOLTIPS[summary.status]}"]
            if problem is not None:
                lines.append(f"{problem.code} (line {problem.line}): {_escape(problem.message)}")
            lines.append(f"<span style='color:gray'>{_escape(str(summary.directory))}</span>")
            return "<br>".join(lines)
        if role == KIND_ROLE:
            return "skill"
        if role == SUMMARY_ROLE:
            return summary
        if role == PATH_ROLE:
            return str(summary.skill_file)
        if role == FILTER_ROLE:
            return filter_text(summary)
        return None

    def _root_data(self, node: RootNode, role: int) -> Any:
        scan = node.scan
        if role == DISPLAY:
            label = scan.root.path.name or str(scan.root.path)
            count = f"{len(scan.skills):,}" + ("…" if node.scanning else "")
            suffix = ", read-only" if scan.root.read_only else ""
            return f"{label} ({count}{suffix})"
        if role == DECORATION:
            style = QApplication.style()
            if scan.error is not None:
                return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
            pixmap = (QStyle.StandardPixmap.SP_DriveHDIcon if scan.root.is_zip
                      else QStyle.StandardPixmap.SP_DirIcon)
            return style.standardIcon(pixmap)
        if role == TOOLTIP:
            text = str(scan.root.path)
            if scan.root.read_only:
                text += "\nA zip archive: its skills open read-only."
            if scan.error is not None:
                text += f"\n{scan.error}"
            return text
        if role == KIND_ROLE:
            return "root"
        if role == PATH_ROLE:
            return str(scan.root.path)
        return None

    def _folder_data(self, node: FolderNode, role: int) -> Any:
        if role == DISPLAY:
            return f"{node.relative} ({len(node.children):,})"
        if role == DECORATION:
            return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_DirIcon)
        if role in (TOOLTIP, PATH_ROLE):
            assert node.root is not None
            return str(node.root.scan.root.path / node.relative)
        if role == KIND_ROLE:
            return "folder"
        return None

    def _file_data(self, node: FileNode, role: int) -> Any:
        skill = node.skill
        assert skill is not None and skill.summary is not None
        if role == DISPLAY:
            return node.relative.name + ("/" if node.is_dir else "")
        if role == DECORATION:
            pixmap = (QStyle.StandardPixmap.SP_DirIcon if node.is_dir
                      else QStyle.StandardPixmap.SP_FileIcon)
            return QApplication.style().standardIcon(pixmap)
        if role in (TOOLTIP, PATH_ROLE):
            return str(skill.summary.directory / node.relative)
        if role == KIND_ROLE:
            return "dir" if node.is_dir else "file"
        if role == SUMMARY_ROLE:
            return skill.summary
        return None

    # -- changing ---------------------------------------------------------------------------------

    def add_root(self, root: SkillRoot) -> RootNode:
        existing = self.root_node(root.path)
        if existing is not None:
            return existing
        row = len(self._root.children)
        node = RootNode(self._root, row, scan=RootScan(root))
        self.beginInsertRows(QModelIndex(), row, row)
        self._root.children.append(node)
        self.endInsertRows()
        return node

    def remove_root(self, path: Path) -> None:
        node = self.root_node(path)
        if node is None:
            return
        self.beginRemoveRows(QModelIndex(), node.row, node.row)
        del self._root.children[node.row]
        self._renumber(self._root)
        self._forget_skills(node)
        self.endRemoveRows()

    def clear_root(self, path: Path) -> None:
        """Drop a root's skills before rescanning it."""
        node = self.root_node(path)
        if node is None:
            return
        node.scan.error = None
        if not node.children:
            return
        self.beginRemoveRows(self.index_of(node), 0, len(node.children) - 1)
        self._forget_skills(node)
        node.children = []
        node.folders = {}
        node.scan.skills = []
        self.endRemoveRows()

    def set_scanning(self, path: Path, scanning: bool, error: str | None = None) -> None:
        node = self.root_node(path)
        if node is None:
            return
        node.scanning = scanning
        if error is not None:
            node.scan.error = error
        index = self.index_of(node)
        self.dataChanged.emit(index, index)

    def _folder_key(self, root: RootNode, summary: SkillSummary) -> str:
        """The folder, relative to the root, that holds the skill ("" when the root itself does)."""
        try:
            relative = summary.directory.parent.relative_to(root.scan.root.path)
        except ValueError:
            return ""
        key = relative.as_posix()
        return "" if key == "." or summary.directory == root.scan.root.path else key

    def add_skills(self, path: Path, summaries: list[SkillSummary]) -> None:
        root = self.root_node(path)
        if root is None or not summaries:
            return
        fresh = [s for s in summaries if s.directory not in self._by_directory]
        if not fresh:
            return
        groups: dict[str, list[SkillSummary]] = {}
        for summary in fresh:
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
                index = self.index_of(parent)
                self.dataChanged.emit(index, index)
        root.scan.skills.extend(fresh)
        self._skill_count += len(fresh)
        index = self.index_of(root)
        self.dataChanged.emit(index, index)
        self.skills_added.emit(self._skill_count)

    def _root_of(self, node: Node) -> RootNode:
        while not isinstance(node, RootNode):
            assert node.parent is not None
            node = node.parent
        return node

    def update_skill(self, summary: SkillSummary, old_directory: Path | None = None) -> None:
        """Show a skill's new state (after a save, a rename or a rescan of it)."""
        node = self._by_directory.pop(old_directory or summary.directory, None)
        if node is None:
            if self.root_node(summary.root) is not None:
                self.add_skills(summary.root, [summary])
            return
        self._by_directory[summary.directory] = node
        root = self._root_of(node)
        old = node.summary
        node.summary = summary
        root.scan.skills = [summary if s is old else s for s in root.scan.skills]
        if node.children:
            self.beginRemoveRows(self.index_of(node), 0, len(node.children) - 1)
            node.children = []
            self.endRemoveRows()
        node.fetched = False
        index = self.index_of(node)
        self.dataChanged.emit(index, index)

    def replace_summaries(self, path: Path, summaries: list[SkillSummary]) -> None:
        """Swap in a root's final summaries (after duplicate names were marked) in place."""
        root = self.root_node(path)
        if root is None:
            return
        for summary in summaries:
            node = self._by_directory.get(summary.directory)
            if node is None or node.summary is summary or node.summary == summary:
                continue
            node.summary = summary
            index = self.index_of(node)
            self.dataChanged.emit(index, index)
        root.scan.skills = list(summaries)

    def remove_skill(self, directory: Path) -> None:
        node = self._by_directory.pop(directory, None)
        if node is None or node.parent is None:
            return
        root = self._root_of(node)
        parent = node.parent
        removed: Node = node
        if isinstance(parent, FolderNode) and len(parent.children) == 1:
            removed, parent = parent, root
            del root.folders[removed.relative]
        self.beginRemoveRows(self.index_of(parent), removed.row, removed.row)
        del parent.children[removed.row]
        self._renumber(parent)
        root.scan.skills = [s for s in root.scan.skills if s.directory != directory]
        self._skill_count -= 1
        self.endRemoveRows()
        for changed in {parent, root}:
            index = self.index_of(changed)
            self.dataChanged.emit(index, index)

    def _forget_skills(self, root: RootNode) -> None:
        for summary in root.scan.skills:
            if self._by_directory.pop(summary.directory, None) is not None:
                self._skill_count -= 1

    @staticmethod
    def _renumber(node: Node) -> None:
        for row, child in enumerate(node.children):
            child.row = row


def filter_text(summary: SkillSummary) -> str:
    """What the library filter searches: name, description and folder name, lowercased."""
    return f"{summary.display_name}\n{summary.description or ''}\n{summary.directory.name}".lower()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


"""The problems table: the core's `Problem`s of the open skill or of the whole library, sorted,
filtered, and flat or grouped by skill (a tree: each skill, then its findings).

The model adapts the core's list as it is given; it keeps only the order in which to show it.
Sorting and filtering are done here over plain Python keys, in one pass each, rather than by a
`QSortFilterProxyModel`, which would call `data()` once per comparison: at 40,000 findings that
is the difference between a few tens of milliseconds and seconds of a frozen window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QFont

from studio.skills.collection import Problem
from studio.ui.icons import severity_icon
from studio.ui.models.indexes import NO_PARENT, Index
from studio.ui.numbers import count_text, plural

PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2

SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
# internalId of a top-level row; a finding inside a group has its group's row + 1.
TOP = 0


def shown_file(problem: Problem) -> str:
    """The file a finding is about, relative to its skill's folder (as the validator names it, or
    cut down to the folder when it gave a full path)."""
    name = problem.diagnostic.file
    path = PurePath(name)
    if path.is_absolute():
        try:
            return path.relative_to(problem.directory).as_posix()
        except ValueError:
            return name
    return name


@dataclass(slots=True)
class SkillGroup:
    """One skill's findings, as a row of the grouped view.

    Attributes:
        directory: the skill's folder.
        name: the name shown for it.
        problems: its findings that pass the filter, in the shown order.
    """

    directory: Path
    name: str
    problems: list[Problem] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0

    def count_text(self) -> str:
        parts = []
        if self.errors:
            parts.append(plural(self.errors, "error"))
        if self.warnings:
            parts.append(plural(self.warnings, "warning"))
        others = len(self.problems) - self.errors - self.warnings
        if others:
            parts.append(plural(others, "note"))
        return ", ".join(parts)

    @property
    def worst(self) -> str:
        return "error" if self.errors else "warning" if self.warnings else "info"


@dataclass(frozen=True, slots=True)
class ProblemFilter:
    """Which findings are shown: of a severity, with a code, holding a text (all when empty)."""

    severity: str = ""
    code: str = ""
    text: str = ""

    @property
    def active(self) -> bool:
        return bool(self.severity or self.code or self.text.strip())


def _sort_key(column: int) -> Callable[[Problem], Any]:
    if column == ProblemsModel.CODE:
        return lambda p: p.diagnostic.code
    if column == ProblemsModel.MESSAGE:
        return lambda p: p.diagnostic.message.lower()
    if column == ProblemsModel.SKILL:
        return lambda p: p.skill_name.lower()
    if column == ProblemsModel.FILE:
        return lambda p: (p.diagnostic.file.lower(), p.diagnostic.line)
    if column == ProblemsModel.LINE:
        return lambda p: (p.diagnostic.line, p.diagnostic.column)
    return lambda p: (SEVERITY_RANK.get(p.diagnostic.severity, 3), p.diagnostic.code)


def _group_key(column: int) -> Callable[[SkillGroup], Any]:
    if column == ProblemsModel.SEVERITY:
        return lambda g: (SEVERITY_RANK[g.worst], -g.errors, -g.warnings)
    if column == ProblemsModel.CODE:
        return lambda g: -len(g.problems)
    item_key = _sort_key(column)
    if column == ProblemsModel.SKILL:
        return lambda g: g.name.lower()
    return lambda g: item_key(g.problems[0])


class ProblemsModel(QAbstractItemModel):
    """Findings in rows; grouped, a skill's row holds its findings.

    Attributes:
        grouped: whether findings are shown under their skill.
        sort_column, sort_order: how rows are ordered (-1: as the library lists them).
    """

    COLUMNS = ("", "Code", "Message", "Skill", "File", "Line")
    SEVERITY, CODE, MESSAGE, SKILL, FILE, LINE = range(6)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._all: Sequence[Problem] = ()
        self._haystacks: list[str] | None = None
        self._shown: list[Problem] = []
        self._groups: list[SkillGroup] = []
        self._filter = ProblemFilter()
        self.grouped = False
        self.sort_column = -1
        self.sort_order = Qt.SortOrder.AscendingOrder
        self._bold = QFont()
        self._bold.setBold(True)

    # -- what is shown -------------------------------------------------------------------------------

    def set_problems(self, problems: Sequence[Problem]) -> None:
        self._all = problems
        self._haystacks = None
        self._rebuild()

    def set_filter(self, wanted: ProblemFilter) -> None:
        if wanted != self._filter:
            self._filter = wanted
            self._rebuild()

    @property
    def filter(self) -> ProblemFilter:
        return self._filter

    def set_grouped(self, grouped: bool) -> None:
        if grouped != self.grouped:
            self.grouped = grouped
            self._rebuild()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if (column, order) != (self.sort_column, self.sort_order):
            self.sort_column, self.sort_order = column, order
            self._rebuild()

    def all_problems(self) -> Sequence[Problem]:
        """Every finding given, shown or not."""
        return self._all

    def problems(self) -> list[Problem]:
        """The findings shown, in the order shown (groups flattened)."""
        if self.grouped:
            return [p for group in self._groups for p in group.problems]
        return self._shown

    def groups(self) -> list[SkillGroup]:
        return self._groups

    def shown_count(self) -> int:
        return len(self._shown)

    def _matching(self) -> list[Problem]:
        wanted = self._filter
        found: Sequence[Problem] = self._all
        if wanted.severity:
            found = [p for p in found if p.diagnostic.severity == wanted.severity]
        if wanted.code:
            found = [p for p in found if p.diagnostic.code == wanted.code]
        words = wanted.text.lower().split()
        if words:
            if self._haystacks is None:
                self._haystacks = [
                    f"{p.diagnostic.code} {p.diagnostic.message} {p.skill_name} "
                    f"{p.diagnostic.file}".lower() for p in self._all
                ]
            keep = {id(p) for p, hay in zip(self._all, self._haystacks, strict=True)
                    if all(word in hay for word in words)}
            found = [p for p in found if id(p) in keep]
        return list(found)

    def _rebuild(self) -> None:
        shown = self._matching()
        reverse = self.sort_order == Qt.SortOrder.DescendingOrder
        if self.sort_column >= 0:
            shown.sort(key=_sort_key(self.sort_column), reverse=reverse)
        groups: list[SkillGroup] = []
        if self.grouped:
            by_folder: dict[Path, SkillGroup] = {}
            for problem in shown:
                group = by_folder.get(problem.directory)
                if group is None:
                    group = by_folder[problem.directory] = SkillGroup(problem.directory,
                                                                      problem.skill_name)
                    groups.append(group)
                group.problems.append(problem)
                severity = problem.diagnostic.severity
                if severity == "error":
                    group.errors += 1
                elif severity == "warning":
                    group.warnings += 1
            if self.sort_column >= 0:
                groups.sort(key=_group_key(self.sort_column), reverse=reverse)
        self.beginResetModel()
        self._shown = shown
        self._groups = groups
        self.endResetModel()

    # -- finding rows ----------------------------------------------------------------------------------

    def problem(self, index: Index) -> Problem | None:
        if not index.isValid():
            return None
        parent_id = index.internalId()
        if self.grouped:
            if parent_id == TOP:
                return None
            group = self._groups[parent_id - 1]
            return group.problems[index.row()] if index.row() < len(group.problems) else None
        return self._shown[index.row()] if index.row() < len(self._shown) else None

    def group(self, index: Index) -> SkillGroup | None:
        if not (self.grouped and index.isValid() and index.internalId() == TOP):
            return None
        return self._groups[index.row()] if index.row() < len(self._groups) else None

    def index_of(self, problem: Problem) -> QModelIndex:
        """Where `problem` is shown (column 0), or an invalid index."""
        if self.grouped:
            for row, group in enumerate(self._groups):
                if group.directory == problem.directory:
                    for child, candidate in enumerate(group.problems):
                        if candidate == problem:
                            return self.createIndex(child, 0, row + 1)
            return QModelIndex()
        for row, candidate in enumerate(self._shown):
            if candidate == problem:
                return self.createIndex(row, 0, TOP)
        return QModelIndex()

    # -- Qt's model interface -----------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        if row < 0 or column < 0 or column >= len(self.COLUMNS):
            return QModelIndex()
        if not parent.isValid():
            size = len(self._groups) if self.grouped else len(self._shown)
            return self.createIndex(row, column, TOP) if row < size else QModelIndex()
        if (self.grouped and parent.internalId() == TOP and parent.row() < len(self._groups)
                and row < len(self._groups[parent.row()].problems)):
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: Index = NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        if not parent.isValid():
            return len(self._groups) if self.grouped else len(self._shown)
        if self.grouped and parent.internalId() == TOP and parent.column() == 0:
            return len(self._groups[parent.row()].problems)
        return 0

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return len(self.COLUMNS)

    def hasChildren(self, parent: Index = NO_PARENT) -> bool:
        return self.rowCount(parent) > 0

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole and section == self.SEVERITY:
            return "Severity: errors, then warnings, then notes when sorted"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if self.grouped and index.internalId() == TOP:
            return self._group_data(self._groups[index.row()], index.column(), role)
        problem = self.problem(index)
        if problem is None:
            return None
        diagnostic = problem.diagnostic
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.CODE:
                return diagnostic.code
            if column == self.MESSAGE:
                return diagnostic.message + ("  ⚡" if diagnostic.fix is not None else "")
            if column == self.SKILL:
                return problem.skill_name
            if column == self.FILE:
                return shown_file(problem)
            if column == self.LINE:
                return f"{count_text(diagnostic.line)}:{diagnostic.column}"
            return None
        if role == PROBLEM_ROLE:
            return problem
        if role == Qt.ItemDataRole.DecorationRole and column == self.SEVERITY:
            return severity_icon(str(diagnostic.severity))
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{diagnostic.severity}: {diagnostic.message}\n{problem.directory / diagnostic.file}"
            if diagnostic.fix is not None:
                tip += f"\nFix available (Ctrl+.): {diagnostic.fix.title}"
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.LINE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _group_data(self, group: SkillGroup, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.CODE:
                return count_text(len(group.problems))
            if column == self.MESSAGE:
                return f"{group.name} — {group.count_text()}"
            if column == self.SKILL:
                return group.name
            if column == self.FILE:
                return group.directory.name
            return None
        if role == GROUP_ROLE:
            return group
        if role == Qt.ItemDataRole.DecorationRole and column == self.SEVERITY:
            return severity_icon(group.worst)
        if role == Qt.ItemDataRole.FontRole and column == self.MESSAGE:
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{group.directory}\n{group.count_text()}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.CODE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

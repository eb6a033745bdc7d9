"""The problems table: the findings of the open skill or of the whole library, sorted,
filtered, and flat or grouped by skill (a tree: each skill, then its findings).

The model adapts the core's findings as the `Library` lists them (a skill's folder, name and
diagnostics); a row is a tuple of those, and a `Problem` is made only for the rows asked for.
Sorting and filtering are done here over plain Python keys, in one pass each, rather than by a
`QSortFilterProxyModel`, which would call `data()` once per comparison: at 40,000 findings that
is the difference between a few tens of milliseconds and seconds of a frozen window.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path, PurePath
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont

from studio.skills.collection import Problem
from studio.skills.model import Diagnostic, Severity
from studio.ui.icons import severity_icon
from studio.ui.models.indexes import NO_PARENT, Index
from studio.ui.numbers import count_text, plural

PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2

SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
# A rebuild (new findings, a sort, a filter) of more rows than this is done in slices of at
# most SLICE_SECONDS per turn of the event loop, so the window never stalls; a smaller one is done
# at once, and the caller sees its result immediately.
SYNC_ROWS = 4000
SLICE_ROWS = 2000
SLICE_SECONDS = 0.02

# internalId of a top-level row; a finding inside a group has its group's row + 1.
TOP = 0

# One finding: its diagnostic, its skill's folder and the skill's shown name.
Row = tuple[Diagnostic, Path, str]
Findings = Iterable[tuple[Path, str, Sequence[Diagnostic]]]


def shown_file(diagnostic: Diagnostic, directory: Path) -> str:
    """The file a finding is about, relative to its skill's folder (as the validator names it, or
    cut down to the folder when it gave a full path)."""
    name = diagnostic.file
    if name.startswith("/"):
        try:
            return PurePath(name).relative_to(directory).as_posix()
        except ValueError:
            return name
    return name


def _problem(row: Row) -> Problem:
    return Problem(row[1], row[2], row[0])


@dataclass(slots=True)
class SkillGroup:
    """One skill's findings, as a row of the grouped view.

    Attributes:
        directory: the skill's folder.
        name: the name shown for it.
        rows: its findings that pass the filter, in the shown order.
    """

    directory: Path
    name: str
    rows: list[Row] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0

    def count_text(self) -> str:
        parts = []
        if self.errors:
            parts.append(plural(self.errors, "error"))
        if self.warnings:
            parts.append(plural(self.warnings, "warning"))
        others = len(self.rows) - self.errors - self.warnings
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


def _sort_key(column: int) -> Callable[[Row], Any]:
    if column == ProblemsModel.CODE:
        return lambda r: r[0].code
    if column == ProblemsModel.MESSAGE:
        return lambda r: r[0].message.lower()
    if column == ProblemsModel.SKILL:
        return lambda r: r[2].lower()
    if column == ProblemsModel.FILE:
        return lambda r: (r[0].file.lower(), r[0].line)
    if column == ProblemsModel.LINE:
        return lambda r: (r[0].line, r[0].column)
    return lambda r: (SEVERITY_RANK.get(r[0].severity, 3), r[0].code)


def _group_key(column: int) -> Callable[[SkillGroup], Any]:
    if column == ProblemsModel.SEVERITY:
        return lambda g: (SEVERITY_RANK[g.worst], -g.errors, -g.warnings)
    if column == ProblemsModel.CODE:
        return lambda g: -len(g.rows)
    item_key = _sort_key(column)
    if column == ProblemsModel.SKILL:
        return lambda g: g.name.lower()
    return lambda g: item_key(g.rows[0])


class ProblemsModel(QAbstractItemModel):
    """Findings in rows; grouped, a skill's row holds its findings.

    Attributes:
        grouped: whether findings are shown under their skill.
        sort_column, sort_order: how rows are ordered (-1: as the library lists them).
        code_counts, severity_counts, fixable_count: of every finding held, shown or not.

    Signals:
        rebuilt: what is shown was rebuilt (after new findings, a sort, a filter, grouping).
    """

    rebuilt = Signal()

    COLUMNS = ("", "Code", "Message", "Skill", "File", "Line")
    SEVERITY, CODE, MESSAGE, SKILL, FILE, LINE = range(6)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._all: list[Row] = []
        self._haystacks: list[str] | None = None
        self.code_counts: Counter[str] = Counter()
        self.severity_counts: Counter[str] = Counter()
        self.fixable_count = 0
        self._job: Iterator[None] | None = None
        self._adopting = False
        self._large = False
        self._slices = QTimer(self)
        self._slices.setSingleShot(True)
        self._slices.setInterval(0)
        self._slices.timeout.connect(self._advance)
        self._shown: list[Row] = []
        self._groups: list[SkillGroup] = []
        self._filter = ProblemFilter()
        self.grouped = False
        self.sort_column = -1
        self.sort_order = Qt.SortOrder.AscendingOrder
        self._bold = QFont()
        self._bold.setBold(True)

    # -- what is shown -------------------------------------------------------------------------------

    def set_findings(self, findings: Findings) -> None:
        """Show the findings of these skills: (folder, name, diagnostics) each."""
        self._start(findings)

    def set_problems(self, problems: Iterable[Problem]) -> None:
        self._start((p.directory, p.skill_name, (p.diagnostic,)) for p in problems)

    @property
    def busy(self) -> bool:
        """A rebuild is under way (the rows shown are the previous ones until it is done)."""
        return self._job is not None

    def set_filter(self, wanted: ProblemFilter) -> None:
        if wanted != self._filter:
            self._filter = wanted
            self._start(None)

    @property
    def filter(self) -> ProblemFilter:
        return self._filter

    def set_grouped(self, grouped: bool) -> None:
        if grouped != self.grouped:
            self.beginResetModel()
            self.grouped = grouped
            self._groups = []
            self.endResetModel()
            self._start(None)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if (column, order) != (self.sort_column, self.sort_order):
            self.sort_column, self.sort_order = column, order
            self._start(None)

    def rows(self) -> Sequence[Row]:
        """Every finding given, shown or not: (diagnostic, folder, name) each."""
        return self._all

    def problems(self) -> list[Problem]:
        """The findings shown, in the order shown (groups flattened)."""
        if self.grouped:
            return [_problem(row) for group in self._groups for row in group.rows]
        return [_problem(row) for row in self._shown]

    def shown_rows(self) -> Iterable[Row]:
        if self.grouped:
            return (row for group in self._groups for row in group.rows)
        return iter(self._shown)

    def groups(self) -> list[SkillGroup]:
        return self._groups

    def shown_count(self) -> int:
        return len(self._shown)

    # -- rebuilding, a slice at a time ----------------------------------------------------------------

    def _start(self, findings: Findings | None) -> None:
        """Rebuild what is shown (from new findings, or from the ones held): all at once when it
        is small, else in slices of at most `SLICE_SECONDS` per turn of the event loop."""
        if findings is None and self._job is not None and self._adopting:
            return  # the rebuild under way reads the sort, filter and grouping after adopting
        self._adopting = findings is not None
        self._job = self._steps(findings)
        self._large = False
        self._advance()

    def _advance(self) -> None:
        job = self._job
        if job is None:
            return
        deadline = time.perf_counter() + SLICE_SECONDS
        for _ in job:
            if self._large and time.perf_counter() > deadline:
                self._slices.start()
                return
        if self._job is job:
            self._job = None

    def _steps(self, findings: Findings | None) -> Iterator[None]:
        """The rebuild, yielding between slices of about `SLICE_ROWS` rows."""
        if findings is not None:
            rows: list[Row] = []
            mark = SLICE_ROWS
            for directory, name, diagnostics in findings:
                rows.extend(zip(diagnostics, repeat(directory), repeat(name)))
                if len(rows) >= mark:
                    mark += SLICE_ROWS
                    self._large = len(rows) > SYNC_ROWS
                    yield
            codes: Counter[str] = Counter()
            severities: Counter[str] = Counter()
            fixable = 0
            for first in range(0, len(rows), SLICE_ROWS):
                piece = rows[first:first + SLICE_ROWS]
                codes.update([row[0].code for row in piece])
                severities.update([row[0].severity for row in piece])
                fixable += sum(1 for row in piece if row[0].fix is not None)
                yield
            self._all, self._haystacks = rows, None
            self.code_counts, self.severity_counts, self.fixable_count = codes, severities, fixable
            self._adopting = False
        rows = self._all
        self._large = len(rows) > SYNC_ROWS
        shown = yield from self._matching(rows)
        reverse = self.sort_order == Qt.SortOrder.DescendingOrder
        if self.sort_column >= 0 and shown:
            key = _sort_key(self.sort_column)
            keys: list[Any] = []
            for first in range(0, len(shown), SLICE_ROWS):
                keys.extend([key(row) for row in shown[first:first + SLICE_ROWS]])
                yield
            order = sorted(range(len(shown)), key=keys.__getitem__, reverse=reverse)
            yield
            shown = [shown[number] for number in order]
            yield
        groups: list[SkillGroup] = []
        if self.grouped:
            by_folder: dict[Path, SkillGroup] = {}
            for first in range(0, len(shown), SLICE_ROWS):
                for row in shown[first:first + SLICE_ROWS]:
                    group = by_folder.get(row[1])
                    if group is None:
                        group = by_folder[row[1]] = SkillGroup(row[1], row[2])
                        groups.append(group)
                    group.rows.append(row)
                    severity = row[0].severity
                    if severity == Severity.ERROR:
                        group.errors += 1
                    elif severity == Severity.WARNING:
                        group.warnings += 1
                yield
            if self.sort_column >= 0:
                groups.sort(key=_group_key(self.sort_column), reverse=reverse)
                yield
        self.beginResetModel()
        self._shown = shown
        self._groups = groups
        self.endResetModel()
        self.rebuilt.emit()

    def _matching(self, rows: list[Row]) -> Generator[None, None, list[Row]]:
        wanted = self._filter
        words = wanted.text.lower().split()
        if words and self._haystacks is None:
            haystacks: list[str] = []
            for first in range(0, len(rows), SLICE_ROWS):
                haystacks.extend([f"{d.code} {d.message} {name} {d.file}".lower()
                                  for d, _directory, name in rows[first:first + SLICE_ROWS]])
                yield
            self._haystacks = haystacks
        if not (words or wanted.severity or wanted.code):
            return list(rows)
        found: list[Row] = []
        for first in range(0, len(rows), SLICE_ROWS):
            piece = rows[first:first + SLICE_ROWS]
            if words:
                assert self._haystacks is not None
                hays = self._haystacks[first:first + SLICE_ROWS]
                piece = [row for row, hay in zip(piece, hays, strict=True)
                         if all(word in hay for word in words)]
            if wanted.severity:
                piece = [row for row in piece if row[0].severity == wanted.severity]
            if wanted.code:
                piece = [row for row in piece if row[0].code == wanted.code]
            found.extend(piece)
            yield
        return found

    # -- finding rows ----------------------------------------------------------------------------------

    def row(self, index: Index) -> Row | None:
        if not index.isValid():
            return None
        parent_id = index.internalId()
        if self.grouped:
            if parent_id == TOP:
                return None
            rows = self._groups[parent_id - 1].rows
            return rows[index.row()] if index.row() < len(rows) else None
        return self._shown[index.row()] if index.row() < len(self._shown) else None

    def problem(self, index: Index) -> Problem | None:
        row = self.row(index)
        return _problem(row) if row is not None else None

    def group(self, index: Index) -> SkillGroup | None:
        if not (self.grouped and index.isValid() and index.internalId() == TOP):
            return None
        return self._groups[index.row()] if index.row() < len(self._groups) else None

    def index_of(self, problem: Problem) -> QModelIndex:
        """Where `problem` is shown (column 0), or an invalid index."""
        wanted = (problem.diagnostic, problem.directory, problem.skill_name)
        if self.grouped:
            for number, group in enumerate(self._groups):
                if group.directory == problem.directory:
                    for child, candidate in enumerate(group.rows):
                        if candidate == wanted:
                            return self.createIndex(child, 0, number + 1)
            return QModelIndex()
        for number, candidate in enumerate(self._shown):
            if candidate == wanted:
                return self.createIndex(number, 0, TOP)
        return QModelIndex()

    # -- Qt's model interface -----------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        if row < 0 or column < 0 or column >= len(self.COLUMNS):
            return QModelIndex()
        if not parent.isValid():
            size = len(self._groups) if self.grouped else len(self._shown)
            return self.createIndex(row, column, TOP) if row < size else QModelIndex()
        if (self.grouped and parent.internalId() == TOP and parent.row() < len(self._groups)
                and row < len(self._groups[parent.row()].rows)):
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
            return len(self._groups[parent.row()].rows)
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
        row = self.row(index)
        if row is None:
            return None
        diagnostic, directory, name = row
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.CODE:
                return diagnostic.code
            if column == self.MESSAGE:
                return diagnostic.message + ("  ⚡" if diagnostic.fix is not None else "")
            if column == self.SKILL:
                return name
            if column == self.FILE:
                return shown_file(diagnostic, directory)
            if column == self.LINE:
                return f"{count_text(diagnostic.line)}:{diagnostic.column}"
            return None
        if role == PROBLEM_ROLE:
            return _problem(row)
        if role == Qt.ItemDataRole.DecorationRole and column == self.SEVERITY:
            return severity_icon(str(diagnostic.severity))
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{diagnostic.severity}: {diagnostic.message}\n{directory / diagnostic.file}"
            if diagnostic.fix is not None:
                tip += f"\nFix available (Ctrl+.): {diagnostic.fix.title}"
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.LINE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _group_data(self, group: SkillGroup, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.CODE:
                return count_text(len(group.rows))
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

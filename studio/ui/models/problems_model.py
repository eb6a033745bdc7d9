"""The problems table: the findings of the open skill or of the whole library, sorted,
filtered, and flat or grouped by skill (a tree: each skill, then its findings).

The model adapts the core's findings as the `Library` lists them (a skill's folder, name and
diagnostics). A finding is held as one integer (its skill's number times a stride, plus its
number in the skill) and a `Problem` is made only for the rows asked for: 40,000 tuples made at
every refresh would wake Python's full garbage collection, which walks every object of a large
library and freezes the window for a quarter of a second.
Sorting and filtering are done here over plain Python keys, in one pass each, rather than by a
`QSortFilterProxyModel`, which would call `data()` once per comparison: at 40,000 findings that
is the difference between a few tens of milliseconds and seconds of a frozen window.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont

from studio.skills.library.collection import Problem
from studio.skills.model import Diagnostic, Severity
from studio.ui.icons import severity_icon
from studio.ui.models.indexes import NO_PARENT, Index
from studio.ui.numbers import count_text, plural

PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2
# The roles `data` answers, as plain integers: a repaint asks for about ten roles per cell, and
# comparing with Qt's enum members one by one made it a third of a repaint's time.
DISPLAY = int(Qt.ItemDataRole.DisplayRole)
DECORATION = int(Qt.ItemDataRole.DecorationRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
FONT = int(Qt.ItemDataRole.FontRole)
ANSWERED = frozenset({DISPLAY, DECORATION, TOOLTIP, ALIGNMENT, FONT, int(PROBLEM_ROLE),
                      int(GROUP_ROLE)})
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
# A rebuild (new findings, a sort, a filter) of more rows than this is done in slices of at
# most SLICE_SECONDS per turn of the event loop, so the window never stalls; a smaller one is done
# at once, and the caller sees its result immediately.
SYNC_ROWS = 4000
SLICE_ROWS = 1000
SLICE_SECONDS = 0.012
# Grouped, the skills given to the tree at first, and then a page more each time it scrolls to
# its end: the tree lays out every top-level row it is given, and 9,600 of them took 40 to 90 ms.
GROUP_PAGE = 500

# internalId of a top-level row; a finding inside a group has its group's row + 1.
TOP = 0

# One finding: its diagnostic, its skill's folder and the skill's shown name.
Row = tuple[Diagnostic, Path, str]
SkillFindings = tuple[Path, str, Sequence[Diagnostic]]
Findings = Iterable[SkillFindings]


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
    rows: list[int] = field(default_factory=list)
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


def _sort_key(column: int, at: Callable[[int], Diagnostic],
              name_of: Callable[[int], str]) -> Callable[[int], Any]:
    """The key of a finding for `column`: a string or an integer, never a tuple (see above)."""
    if column == ProblemsModel.CODE:
        return lambda r: at(r).code
    if column == ProblemsModel.MESSAGE:
        return lambda r: at(r).message.lower()
    if column == ProblemsModel.SKILL:
        return lambda r: name_of(r).lower()
    if column == ProblemsModel.FILE:
        return lambda r: f"{at(r).file.lower()}\0{at(r).line:09d}"
    if column == ProblemsModel.LINE:
        return lambda r: at(r).line * 1_000_000 + at(r).column
    return lambda r: f"{SEVERITY_RANK.get(at(r).severity, 3)}{at(r).code}"


def _key(skills: list[SkillFindings], stride: int, column: int) -> Callable[[int], Any]:
    def at(number: int) -> Diagnostic:
        return skills[number // stride][2][number % stride]

    def name_of(number: int) -> str:
        return skills[number // stride][1]

    return _sort_key(column, at, name_of)


def _group_key(column: int, item_key: Callable[[int], Any]) -> Callable[[SkillGroup], Any]:
    if column == ProblemsModel.SEVERITY:
        return lambda g: (SEVERITY_RANK[g.worst], -g.errors, -g.warnings)
    if column == ProblemsModel.CODE:
        return lambda g: -len(g.rows)
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
        self._skills: list[SkillFindings] = []
        self._stride = 1
        self._all: list[int] = []
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
        self._shown: list[int] = []
        self._groups: list[SkillGroup] = []
        # How many of `_groups` the views have been given (see GROUP_PAGE).
        self._paged = 0
        self._first_fix: int | None = None
        # Made when first needed after a rebuild: a skill's number by its folder, and a group's
        # row by its skill's number.
        self._skill_numbers: dict[Path, int] | None = None
        self._group_rows: dict[int, int] | None = None
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
        by_skill: dict[Path, tuple[str, list[Diagnostic]]] = {}
        for problem in problems:
            by_skill.setdefault(problem.directory, (problem.skill_name, []))[1].append(
                problem.diagnostic)
        self._start((directory, name, diagnostics)
                    for directory, (name, diagnostics) in by_skill.items())

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
            self._paged = 0
            self._group_rows = None
            self.endResetModel()
            self._start(None)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if (column, order) != (self.sort_column, self.sort_order):
            self.sort_column, self.sort_order = column, order
            self._start(None)

    def finding_count(self) -> int:
        """How many findings are held, shown or not."""
        return len(self._all)

    def skills_with_code(self, code: str) -> list[Path]:
        """The folders of the skills with a finding of `code` (shown or not), in library order."""
        return [directory for directory, _name, diagnostics in self._skills
                if any(d.code == code for d in diagnostics)]

    def problems(self) -> list[Problem]:
        """The findings shown, in the order shown (groups flattened)."""
        return [_problem(self._row(number)) for number in self._shown_ids()]

    def first_fixable(self) -> Problem | None:
        """The first finding shown that has a fix (found while rebuilding: a walk over 40,000
        findings after every sort or filter stalled the window)."""
        return None if self._first_fix is None else _problem(self._row(self._first_fix))

    def group_codes(self, group: SkillGroup) -> list[str]:
        """The codes of a group's findings shown, in order."""
        return sorted({self._row(number)[0].code for number in group.rows})

    def _shown_ids(self) -> Iterable[int]:
        if self.grouped:
            return (number for group in self._groups for number in group.rows)
        return self._shown

    def _row(self, number: int) -> Row:
        directory, name, diagnostics = self._skills[number // self._stride]
        return diagnostics[number % self._stride], directory, name

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
            skills: list[SkillFindings] = []
            count = 0
            mark = SLICE_ROWS
            for found in findings:
                if found[2]:
                    skills.append(found)
                    count += len(found[2])
                    if count >= mark:
                        mark += SLICE_ROWS
                        self._large = count > SYNC_ROWS
                        yield
            stride = max((len(found[2]) for found in skills), default=0) + 1
            rows: list[int] = []
            codes: Counter[str] = Counter()
            severities: Counter[str] = Counter()
            fixable = 0
            for first in range(0, len(skills), SLICE_ROWS // 4):
                for number, (_directory, _name, diagnostics) in enumerate(
                        skills[first:first + SLICE_ROWS // 4], first):
                    rows.extend(range(number * stride, number * stride + len(diagnostics)))
                    codes.update([d.code for d in diagnostics])
                    severities.update([d.severity for d in diagnostics])
                    fixable += sum(1 for d in diagnostics if d.fix is not None)
                yield
            haystacks: list[str] | None = None
            counts = (codes, severities, fixable)
        else:
            skills, stride, rows, haystacks = self._skills, self._stride, self._all, self._haystacks
            counts = None
        self._large = len(rows) > SYNC_ROWS
        haystacks = yield from self._haystacks_of(skills, stride, rows, haystacks)
        shown = yield from self._matching(skills, stride, rows, haystacks)
        reverse = self.sort_order == Qt.SortOrder.DescendingOrder
        if self.sort_column >= 0 and shown:
            key = _key(skills, stride, self.sort_column)
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
            by_skill: dict[int, SkillGroup] = {}
            for first in range(0, len(shown), SLICE_ROWS):
                for number in shown[first:first + SLICE_ROWS]:
                    group = by_skill.get(number // stride)
                    directory, name, diagnostics = skills[number // stride]
                    if group is None:
                        group = by_skill[number // stride] = SkillGroup(directory, name)
                        groups.append(group)
                    group.rows.append(number)
                    severity = diagnostics[number % stride].severity
                    if severity == Severity.ERROR:
                        group.errors += 1
                    elif severity == Severity.WARNING:
                        group.warnings += 1
                yield
            if self.sort_column >= 0:
                groups.sort(key=_group_key(self.sort_column,
                                           _key(skills, stride, self.sort_column)),
                            reverse=reverse)
                yield
        shown_order: Iterable[int] = shown
        if self.grouped:
            shown_order = (number for group in groups for number in group.rows)
        first_fix = yield from self._first_fixable_of(skills, stride, shown_order)
        self.beginResetModel()
        self._first_fix = first_fix
        self._skill_numbers = None if skills is not self._skills else self._skill_numbers
        self._group_rows = None
        self._skills, self._stride, self._all, self._haystacks = skills, stride, rows, haystacks
        if counts is not None:
            self.code_counts, self.severity_counts, self.fixable_count = counts
            self._adopting = False
        self._shown = shown
        self._groups = groups
        self._paged = min(len(groups), GROUP_PAGE)
        self.endResetModel()
        self.rebuilt.emit()

    def _first_fixable_of(self, skills: list[SkillFindings], stride: int,
                          order: Iterable[int]) -> Generator[None, None, int | None]:
        for seen, number in enumerate(order, 1):
            if skills[number // stride][2][number % stride].fix is not None:
                return number
            if seen % SLICE_ROWS == 0:
                yield
        return None

    def _haystacks_of(self, skills: list[SkillFindings], stride: int, rows: list[int],
                      haystacks: list[str] | None) -> Generator[None, None, list[str] | None]:
        """What the text filter searches in, one lowercased string per finding (made when first
        needed)."""
        if haystacks is not None or not self._filter.text.split():
            return haystacks
        made: list[str] = []
        for first in range(0, len(rows), SLICE_ROWS):
            for number in rows[first:first + SLICE_ROWS]:
                _directory, name, diagnostics = skills[number // stride]
                d = diagnostics[number % stride]
                made.append(f"{d.code} {d.message} {name} {d.file}".lower())
            yield
        return made

    def _matching(self, skills: list[SkillFindings], stride: int, rows: list[int],
                  haystacks: list[str] | None) -> Generator[None, None, list[int]]:
        wanted = self._filter
        words = wanted.text.lower().split()
        if not (words or wanted.severity or wanted.code):
            return list(rows)
        found: list[int] = []
        for first in range(0, len(rows), SLICE_ROWS):
            piece = rows[first:first + SLICE_ROWS]
            if words and haystacks is not None:
                hays = haystacks[first:first + SLICE_ROWS]
                piece = [row for row, hay in zip(piece, hays, strict=True)
                         if all(word in hay for word in words)]
            if wanted.severity:
                piece = [n for n in piece
                         if skills[n // stride][2][n % stride].severity == wanted.severity]
            if wanted.code:
                piece = [n for n in piece if skills[n // stride][2][n % stride].code == wanted.code]
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
            return self._row(rows[index.row()]) if index.row() < len(rows) else None
        return self._row(self._shown[index.row()]) if index.row() < len(self._shown) else None

    def problem(self, index: Index) -> Problem | None:
        row = self.row(index)
        return _problem(row) if row is not None else None

    def group(self, index: Index) -> SkillGroup | None:
        if not (self.grouped and index.isValid() and index.internalId() == TOP):
            return None
        return self._groups[index.row()] if index.row() < self._paged else None

    def index_of(self, problem: Problem) -> QModelIndex:
        """Where `problem` is shown (column 0), or an invalid index. Found through lookups made
        once per rebuild: comparing it with each of 40,000 findings after every sort or filter
        (to keep the selection) stalled the window."""
        number = self._number_of(problem)
        if number is None:
            return QModelIndex()
        if self.grouped:
            if self._group_rows is None:
                self._group_rows = {group.rows[0] // self._stride: place
                                    for place, group in enumerate(self._groups) if group.rows}
            place = self._group_rows.get(number // self._stride)
            if place is None:
                return QModelIndex()
            self._page_to(place)
            rows = self._groups[place].rows
            return self.createIndex(rows.index(number), 0, place + 1) if number in rows \
                else QModelIndex()
        try:
            return self.createIndex(self._shown.index(number), 0, TOP)
        except ValueError:
            return QModelIndex()

    def _number_of(self, problem: Problem) -> int | None:
        if self._skill_numbers is None:
            self._skill_numbers = {directory: number
                                   for number, (directory, _name, _found) in enumerate(self._skills)}
        skill = self._skill_numbers.get(problem.directory)
        if skill is None:
            return None
        _directory, name, diagnostics = self._skills[skill]
        if name != problem.skill_name:
            return None
        for place, diagnostic in enumerate(diagnostics):
            if diagnostic is problem.diagnostic or diagnostic == problem.diagnostic:
                return skill * self._stride + place
        return None

    # -- Qt's model interface -----------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        if row < 0 or column < 0 or column >= len(self.COLUMNS):
            return QModelIndex()
        if not parent.isValid():
            size = self._paged if self.grouped else len(self._shown)
            return self.createIndex(row, column, TOP) if row < size else QModelIndex()
        if (self.grouped and parent.internalId() == TOP and parent.row() < self._paged
                and row < len(self._groups[parent.row()].rows)):
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: Index = NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        if not parent.isValid():
            return self._paged if self.grouped else len(self._shown)
        if self.grouped and parent.internalId() == TOP and parent.column() == 0:
            return len(self._groups[parent.row()].rows)
        return 0

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return len(self.COLUMNS)

    def hasChildren(self, parent: Index = NO_PARENT) -> bool:
        # The tree asks this of every skill at each layout: answered without counting (a group
        # always holds at least one finding).
        if not parent.isValid():
            return bool(self._paged if self.grouped else self._shown)
        return self.grouped and parent.internalId() == TOP and parent.column() == 0

    def canFetchMore(self, parent: Index) -> bool:
        return self.grouped and not parent.isValid() and self._paged < len(self._groups)

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            self._page_to(self._paged + GROUP_PAGE - 1)

    def _page_to(self, place: int) -> None:
        """Give the views every group up to the one at `place`."""
        last = min(place, len(self._groups) - 1)
        if last < self._paged:
            return
        self.beginInsertRows(QModelIndex(), self._paged, last)
        self._paged = last + 1
        self.endInsertRows()

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
        role = int(role)
        if role not in ANSWERED or not index.isValid():
            return None
        if self.grouped and index.internalId() == TOP:
            return self._group_data(self._groups[index.row()], index.column(), role)
        row = self.row(index)
        if row is None:
            return None
        diagnostic, directory, name = row
        column = index.column()
        if role == DISPLAY:
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
        if role == DECORATION and column == self.SEVERITY:
            return severity_icon(str(diagnostic.severity))
        if role == TOOLTIP:
            tip = f"{diagnostic.severity}: {diagnostic.message}\n{directory / diagnostic.file}"
            if diagnostic.fix is not None:
                tip += f"\nFix available (Ctrl+.): {diagnostic.fix.title}"
            return tip
        if role == ALIGNMENT and column == self.LINE:
            return RIGHT
        return None

    def _group_data(self, group: SkillGroup, column: int, role: int) -> Any:
        if role == DISPLAY:
            if column == self.MESSAGE:
                return f"{group.name} — {group.count_text()}"
            if column == self.SKILL:
                return group.name
            if column == self.FILE:
                return group.directory.name
            return None
        if role == GROUP_ROLE:
            return group
        if role == DECORATION and column == self.SEVERITY:
            return severity_icon(group.worst)
        if role == FONT and column == self.MESSAGE:
            return self._bold
        if role == TOOLTIP:
            return f"{group.directory}\n{group.count_text()}"
        return None

"""The problems table: a Qt model over the `FindingsIndex` (the findings of the open skill or of
the whole library, sorted, filtered, flat or grouped by skill: a tree of each skill, then its
findings).

The index does the work in plain Python; this model drives its rebuilds a slice at a time on the
event loop (a large one never stalls the window), gives the tree its skills a page at a time, and
answers Qt's questions about rows.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont

from studio.skills import Diagnostic
from studio.skills.library import Problem
from studio.ui import collector
from studio.ui.icons import severity_icon
from studio.ui.indexes import NO_PARENT, Index
from studio.ui.numbers import count_text, plural
from studio.ui.problems import findings
from studio.ui.problems.findings import (
    Findings,
    FindingsIndex,
    ProblemFilter,
    Rebuild,
    Row,
    SkillGroup,
    problem_of,
    shown_file,
)

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

# A large rebuild (see `findings.SYNC_ROWS`) runs at most this long per turn of the event loop.
SLICE_SECONDS = 0.012
# Grouped, the skills given to the tree at first, and then a page more each time it scrolls to
# its end: the tree lays out every top-level row it is given, and 9,600 of them took 40 to 90 ms.
GROUP_PAGE = 500

# internalId of a top-level row; a finding inside a group has its group's row + 1.
TOP = 0


def group_text(group: SkillGroup) -> str:
    """"2 errors, 1 warning" for a group's findings shown."""
    parts = []
    if group.errors:
        parts.append(plural(group.errors, "error"))
    if group.warnings:
        parts.append(plural(group.warnings, "warning"))
    if group.notes:
        parts.append(plural(group.notes, "note"))
    return ", ".join(parts)


class ProblemsModel(QAbstractItemModel):
    """Findings in rows; grouped, a skill's row holds its findings.

    Attributes:
        findings: the index of findings shown (counts, filter, grouping, sort, the groups).

    Signals:
        rebuilt: what is shown was rebuilt (after new findings, a sort, a filter, grouping).
    """

    rebuilt = Signal()

    COLUMNS = findings.COLUMNS
    SEVERITY, CODE, MESSAGE, SKILL, FILE, LINE = (findings.SEVERITY, findings.CODE,
                                                  findings.MESSAGE, findings.SKILL,
                                                  findings.FILE, findings.LINE)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.findings = FindingsIndex()
        self._job: Iterator[bool] | None = None
        self._adopting = False
        self._again = False
        self._slices = QTimer(self)
        self._slices.setSingleShot(True)
        self._slices.setInterval(0)
        self._slices.timeout.connect(self._advance)
        # How many of the groups the views have been given (see GROUP_PAGE).
        self._paged = 0
        self._bold = QFont()
        self._bold.setBold(True)

    # -- what is shown -------------------------------------------------------------------------------

    def set_findings(self, found: Findings) -> None:
        """Show the findings of these skills: (folder, name, diagnostics) each."""
        self._start(found)

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

    @property
    def sort_order(self) -> Qt.SortOrder:
        return Qt.SortOrder.DescendingOrder if self.findings.descending \
            else Qt.SortOrder.AscendingOrder

    def set_filter(self, wanted: ProblemFilter) -> None:
        if wanted != self.findings.filter:
            self.findings.filter = wanted
            self._start(None)

    def set_grouped(self, grouped: bool) -> None:
        if grouped != self.findings.grouped:
            self.beginResetModel()
            self.findings.set_grouped(grouped)
            self._paged = 0
            self.endResetModel()
            self._start(None)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if (column, order) != (self.findings.sort_column, self.sort_order):
            self.findings.sort_column = column
            self.findings.descending = order == Qt.SortOrder.DescendingOrder
            self._start(None)

    def problems(self) -> list[Problem]:
        """The findings shown, in the order shown (groups flattened)."""
        return self.findings.problems()

    # -- rebuilding, a slice at a time ----------------------------------------------------------------

    def _start(self, found: Findings | None) -> None:
        """Rebuild what is shown (from new findings, or from the ones held): all at once when it
        is small, else in slices of at most `SLICE_SECONDS` per turn of the event loop."""
        if found is None and self._job is not None and self._adopting:
            # The rebuild under way keeps its new findings, but may have read the sort, filter
            # or grouping before they changed (at 100,000 skills it runs for seconds): once it
            # is shown, what is shown is rebuilt from them.
            self._again = True
            return
        self._adopting = found is not None
        self._again = False
        self._job = self._steps(self.findings.rebuild(found))
        self._advance()

    def _advance(self) -> None:
        job = self._job
        if job is None:
            return
        deadline = time.perf_counter() + SLICE_SECONDS
        # A rebuild of 100,000 skills' findings makes as many groups and lists: each slice set
        # off collections that walked them all (see studio.ui.collector).
        with collector.paused():
            for large in job:
                if large and time.perf_counter() > deadline:
                    self._slices.start()
                    return
        if self._job is job:
            self._job = None

    def _steps(self, rebuild: Rebuild) -> Iterator[bool]:
        built = yield from rebuild
        self.beginResetModel()
        self.findings.adopt(built)
        # What is shown lives until the next rebuild: later collections need not walk it.
        collector.settle()
        self._adopting = False
        self._paged = min(len(self.findings.groups), GROUP_PAGE)
        self.endResetModel()
        self.rebuilt.emit()
        if self._again and self._job is not None:
            self._again = False
            self._job = self._steps(self.findings.rebuild(None))
            self._slices.start()

    # -- finding rows ----------------------------------------------------------------------------------

    def row(self, index: Index) -> Row | None:
        if not index.isValid():
            return None
        parent_id = index.internalId()
        found = self.findings
        if found.grouped:
            if parent_id == TOP:
                return None
            rows = found.groups[parent_id - 1].rows
            return found.row(rows[index.row()]) if index.row() < len(rows) else None
        return found.row(found.shown[index.row()]) if index.row() < len(found.shown) else None

    def problem(self, index: Index) -> Problem | None:
        row = self.row(index)
        return problem_of(row) if row is not None else None

    def group(self, index: Index) -> SkillGroup | None:
        if not (self.findings.grouped and index.isValid() and index.internalId() == TOP):
            return None
        return self.findings.groups[index.row()] if index.row() < self._paged else None

    def index_of(self, problem: Problem) -> QModelIndex:
        """Where `problem` is shown (column 0), or an invalid index."""
        found = self.findings
        number = found.number_of(problem)
        if number is None:
            return QModelIndex()
        if found.grouped:
            place = found.group_place(number)
            if place is None:
                return QModelIndex()
            self._page_to(place)
            rows = found.groups[place].rows
            return self.createIndex(rows.index(number), 0, place + 1) if number in rows \
                else QModelIndex()
        try:
            return self.createIndex(found.shown.index(number), 0, TOP)
        except ValueError:
            return QModelIndex()

    # -- Qt's model interface -----------------------------------------------------------------------

    def _top_rows(self) -> int:
        return self._paged if self.findings.grouped else len(self.findings.shown)

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        if row < 0 or column < 0 or column >= len(self.COLUMNS):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, TOP) if row < self._top_rows() else QModelIndex()
        if (self.findings.grouped and parent.internalId() == TOP and parent.row() < self._paged
                and row < len(self.findings.groups[parent.row()].rows)):
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: Index = NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        if not parent.isValid():
            return self._top_rows()
        if self.findings.grouped and parent.internalId() == TOP and parent.column() == 0:
            return len(self.findings.groups[parent.row()].rows)
        return 0

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return len(self.COLUMNS)

    def hasChildren(self, parent: Index = NO_PARENT) -> bool:
        # The tree asks this of every skill at each layout: answered without counting (a group
        # always holds at least one finding).
        if not parent.isValid():
            return bool(self._top_rows())
        return self.findings.grouped and parent.internalId() == TOP and parent.column() == 0

    def canFetchMore(self, parent: Index) -> bool:
        return (self.findings.grouped and not parent.isValid()
                and self._paged < len(self.findings.groups))

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            self._page_to(self._paged + GROUP_PAGE - 1)

    def _page_to(self, place: int) -> None:
        """Give the views every group up to the one at `place`."""
        last = min(place, len(self.findings.groups) - 1)
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
        if self.findings.grouped and index.internalId() == TOP:
            return self._group_data(self.findings.groups[index.row()], index.column(), role)
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
            return problem_of(row)
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
                return f"{group.name} — {group_text(group)}"
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
            return f"{group.directory}\n{group_text(group)}"
        return None

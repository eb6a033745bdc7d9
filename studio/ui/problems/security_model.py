"""The Security group as a Qt tree: one top row titled with its counts ("Security (3 high)"),
a row per skill under it, worst first, and the skill's findings under that, each with its
severity as the scanner ranks it (critical to info), code, message, confidence, file, line and
column, and evidence. It adapts a `SecurityRows` (Qt-free, `security_rows.py`), reset once per
batch of scans, never per finding."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QFont

from studio.skills.library import Problem
from studio.textshow import shown_line
from studio.threatscan import Finding
from studio.ui.icons import severity_icon
from studio.ui.indexes import NO_PARENT, Index
from studio.ui.numbers import count_text
from studio.ui.problems.security_rows import (
    DIAGNOSTIC_SEVERITY,
    SecurityRows,
    SecuritySkill,
    level_counts,
    openable,
    problem_of,
)

COLUMNS = ("Severity", "Code", "Message", "Confidence", "File", "Line", "Evidence")
SEVERITY, CODE, MESSAGE, CONFIDENCE, FILE, LINE, EVIDENCE = range(len(COLUMNS))
DISPLAY = int(Qt.ItemDataRole.DisplayRole)
DECORATION = int(Qt.ItemDataRole.DecorationRole)
TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
FONT = int(Qt.ItemDataRole.FontRole)
# internalId of the title row, of a skill's row, and (plus its skill's row) of a finding's.
TITLE, SKILL, FINDING = 0, 1, 2
# The skills given to the tree at first, and then a page more each time it scrolls to their
# end: the tree lays out every row under an open one, and 10,000 took it 200 ms.
SKILL_PAGE = 500


class SecurityModel(QAbstractItemModel):
    """The title row, the skills and their findings.

    Attributes:
        rows: what is shown (`security_rows.security_rows` made it).
        pending: how many skills are still to scan (said in the title).
        empty: what the title says when nothing is shown.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows = SecurityRows()
        self.pending = 0
        self.empty = "no findings"
        self._paged = 0
        self._bold = QFont()
        self._bold.setBold(True)

    def show(self, rows: SecurityRows, pending: int, empty: str) -> None:
        self.beginResetModel()
        self.rows, self.pending, self.empty = rows, pending, empty
        self._paged = min(len(rows.skills), SKILL_PAGE)
        self.endResetModel()

    def title(self) -> str:
        return self.rows.title(self.pending, self.empty)

    def skill(self, index: Index) -> SecuritySkill | None:
        if index.isValid() and index.internalId() == SKILL:
            return self.rows.skills[index.row()]
        return None

    def finding(self, index: Index) -> tuple[SecuritySkill, Finding] | None:
        if not index.isValid() or index.internalId() < FINDING:
            return None
        skill = self.rows.skills[index.internalId() - FINDING]
        return skill, skill.findings[index.row()]

    def problem(self, index: Index) -> Problem | None:
        found = self.finding(index)
        return problem_of(*found) if found is not None else None

    # -- Qt's model interface ---------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = NO_PARENT) -> QModelIndex:
        if row < 0 or not 0 <= column < len(COLUMNS) or row >= self.rowCount(parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, TITLE)
        if parent.internalId() == TITLE:
            return self.createIndex(row, column, SKILL)
        return self.createIndex(row, column, FINDING + parent.row())

    def parent(self, index: Index = NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == TITLE:
            return QModelIndex()
        if index.internalId() == SKILL:
            return self.createIndex(0, 0, TITLE)
        return self.createIndex(index.internalId() - FINDING, 0, SKILL)

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        if not parent.isValid():
            return 1
        if parent.column() != 0:
            return 0
        if parent.internalId() == TITLE:
            return self._paged
        if parent.internalId() == SKILL:
            return len(self.rows.skills[parent.row()].findings)
        return 0

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return len(COLUMNS)

    def hasChildren(self, parent: Index = NO_PARENT) -> bool:
        # Asked of every row at each layout: answered without counting (a skill shown always
        # holds a finding).
        return not parent.isValid() or (parent.column() == 0 and parent.internalId() < FINDING
                                         and (parent.internalId() == SKILL or self._paged > 0))

    def canFetchMore(self, parent: Index) -> bool:
        return (parent.isValid() and parent.internalId() == TITLE
                and self._paged < len(self.rows.skills))

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent):
            last = min(self._paged + SKILL_PAGE, len(self.rows.skills)) - 1
            self.beginInsertRows(parent, self._paged, last)
            self._paged = last + 1
            self.endInsertRows()

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        role = int(role)
        if not index.isValid():
            return None
        kind, column = index.internalId(), index.column()
        if kind == TITLE:
            return self._title_data(column, role)
        if kind == SKILL:
            return self._skill_data(self.rows.skills[index.row()], column, role)
        skill = self.rows.skills[kind - FINDING]
        return self._finding_data(skill, skill.findings[index.row()], column, role)

    def _title_data(self, column: int, role: int) -> Any:
        if role == DISPLAY and column == SEVERITY:
            return self.title()
        if role == FONT:
            return self._bold
        if role == TOOLTIP:
            return ("What the skill scanner (`studio scan`) finds in every file of each skill, "
                    "worst first. In the whole library, findings below medium are shown only "
                    "for the open skill.")
        return None

    def _skill_data(self, skill: SecuritySkill, column: int, role: int) -> Any:
        if role == DISPLAY:
            if column == SEVERITY:
                return shown_line(skill.name)
            if column == MESSAGE:
                return level_counts(skill.counts())
            return None
        if role == DECORATION and column == SEVERITY:
            return severity_icon(DIAGNOSTIC_SEVERITY[skill.worst])
        if role == TOOLTIP:
            return f"{shown_line(str(skill.directory))}\n{level_counts(skill.counts())}"
        return None

    def _finding_data(self, skill: SecuritySkill, finding: Finding, column: int,
                      role: int) -> Any:
        if role == DISPLAY:
            return _finding_text(finding, column)
        if role == DECORATION and column == SEVERITY:
            return severity_icon(DIAGNOSTIC_SEVERITY[finding.severity])
        if role == TOOLTIP:
            where = skill.directory / finding.file
            tip = (f"{finding.severity} {finding.code} (confidence {finding.confidence:.1f}): "
                   f"{shown_line(finding.message)}\n{shown_line(str(where))}:{finding.line}:"
                   f"{finding.column}")
            if finding.evidence:
                tip += f"\nEvidence: {shown_line(finding.evidence)}"
            if not openable(where):
                tip += "\nNot a file the editor opens: look at it where it is."
            return tip
        return None


def _finding_text(finding: Finding, column: int) -> str | None:
    if column == SEVERITY:
        return finding.severity
    if column == CODE:
        return finding.code
    if column == MESSAGE:
        return shown_line(finding.message)
    if column == CONFIDENCE:
        return f"{finding.confidence:.1f}"
    if column == FILE:
        return shown_line(finding.file)
    if column == LINE:
        return f"{count_text(finding.line)}:{finding.column}"
    if column == EVIDENCE:
        return shown_line(finding.evidence)
    return None

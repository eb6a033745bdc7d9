"""The problems table: the core's `Diagnostic`s of the open skill, or of the whole library."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QObject, Qt

from studio.skills.model import Diagnostic
from studio.ui.icons import severity_icon
from studio.ui.models.indexes import NO_PARENT, Index

PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True, slots=True)
class Problem:
    """A diagnostic and the skill it belongs to (its folder and the name to show)."""

    directory: Path
    skill_name: str
    diagnostic: Diagnostic


class ProblemsModel(QAbstractTableModel):
    COLUMNS = ("", "Code", "Message", "Skill", "File", "Line")
    SEVERITY, CODE, MESSAGE, SKILL, FILE, LINE = range(6)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._problems: Sequence[Problem] = ()

    def set_problems(self, problems: Sequence[Problem]) -> None:
        self.beginResetModel()
        self._problems = problems
        self.endResetModel()

    def problem(self, row: int) -> Problem | None:
        return self._problems[row] if 0 <= row < len(self._problems) else None

    def problems(self) -> Sequence[Problem]:
        return self._problems

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._problems)

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        problem = self.problem(index.row()) if index.isValid() else None
        if problem is None:
            return None
        diagnostic = problem.diagnostic
        column = index.column()
        if role == PROBLEM_ROLE:
            return problem
        if role == Qt.ItemDataRole.DecorationRole and column == self.SEVERITY:
            return severity_icon(str(diagnostic.severity))
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{diagnostic.severity}: {diagnostic.message}"
            if diagnostic.fix is not None:
                tip += f"\nFix available (Ctrl+.): {diagnostic.fix.title}"
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.LINE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == self.CODE:
            return diagnostic.code
        if column == self.MESSAGE:
            return diagnostic.message + ("  ⚡" if diagnostic.fix is not None else "")
        if column == self.SKILL:
            return problem.skill_name
        if column == self.FILE:
            return diagnostic.file
        if column == self.LINE:
            return f"{diagnostic.line}:{diagnostic.column}"
        return None

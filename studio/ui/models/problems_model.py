"""The problems table: the core's `Diagnostic`s of the open skill, or of the whole library."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt

from studio.skills.collection import Problem
from studio.ui.icons import severity_icon
from studio.ui.models.indexes import Index
from studio.ui.models.rows import RowsModel

PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 1


class ProblemsModel(RowsModel):
    COLUMNS = ("", "Code", "Message", "Skill", "File", "Line")
    SEVERITY, CODE, MESSAGE, SKILL, FILE, LINE = range(6)

    def set_problems(self, problems: Sequence[Problem]) -> None:
        self.set_rows(problems)

    def problem(self, row: int) -> Problem | None:
        found: Problem | None = self.row_at(row)
        return found

    def problems(self) -> Sequence[Problem]:
        return self._rows

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

"""The Security group's view in the Problems panel: the scanner's findings per skill under one
title row, filtered as the panel filters; double-click goes to a finding as to any problem."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QToolTip, QTreeView, QWidget

from studio.threatscan import rank
from studio.ui.problems.findings import ProblemFilter
from studio.ui.problems.security_model import (
    CODE,
    CONFIDENCE,
    FILE,
    LINE,
    MESSAGE,
    SEVERITY,
    TITLE,
    TOOLTIP,
    SecurityModel,
)
from studio.ui.problems.security_rows import SkillFindings, security_rows

# Skills holding a finding at this level or above are opened when shown, as many as this at
# most; the rest stay closed under their counts (a library may flag hundreds).
OPEN_LEVEL = "high"
OPEN_AT_MOST = 50


class SecurityView(QTreeView):
    """The Security group.

    Attributes:
        model_: the rows shown.

    Signals:
        problem_activated: (Problem) the user wants to see where a finding is.
        rebuilt: what is shown was rebuilt (new findings, scope or filter).
    """

    problem_activated = Signal(object)
    rebuilt = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model_ = SecurityModel(self)
        self.setModel(self.model_)
        self.setObjectName("securityGroup")
        self.setUniformRowHeights(True)
        self.setIndentation(14)
        self.setAnimated(False)
        self.setAllColumnsShowFocus(True)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self._filter = ProblemFilter()
        self._scans: list[SkillFindings] = []
        self._open_skill: Path | None = None
        self._pending = 0
        self._empty = "no findings"
        # What the user opened or closed stays so across rebuilds (a few a second while a
        # library is scanned): the title, and skills by their folder.
        self._title_open = True
        self._chosen: dict[Path, bool] = {}
        self._restoring = False
        self._size_columns()
        self.doubleClicked.connect(self._on_double_clicked)
        self.expanded.connect(self._on_expanded)
        self.collapsed.connect(self._on_collapsed)

    def _size_columns(self) -> None:
        header = self.header()
        metrics = self.fontMetrics()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.resizeSection(SEVERITY, metrics.horizontalAdvance("m" * 18) + 40)
        header.resizeSection(CODE, metrics.horizontalAdvance("SK0000") + 20)
        header.resizeSection(MESSAGE, metrics.horizontalAdvance("m" * 36))
        header.resizeSection(CONFIDENCE, metrics.horizontalAdvance("Confidence") + 16)
        header.resizeSection(FILE, metrics.horizontalAdvance("scripts/install.sh") + 16)
        header.resizeSection(LINE, metrics.horizontalAdvance("0,000:00") + 16)

    def show_scans(self, scans: Iterable[SkillFindings], open_skill: Path | None,
                   pending: int, empty: str = "no findings") -> None:
        """Show the findings of `scans` ((folder, name, findings) each), all of them for
        `open_skill` and those at `medium` or above for the others; `pending` skills are still
        to scan; `empty` is what the title says when there is nothing to show."""
        self._scans, self._open_skill, self._pending = list(scans), open_skill, pending
        self._empty = empty
        self._rebuild()

    def set_filter(self, wanted: ProblemFilter) -> None:
        if wanted != self._filter:
            self._filter = wanted
            self._rebuild()

    def _rebuild(self) -> None:
        self._restoring = True
        try:
            self.model_.show(security_rows(self._scans, self._filter, self._open_skill),
                             self._pending, self._empty)
            title = self.model_.index(0, 0)
            self.setFirstColumnSpanned(0, QModelIndex(), True)
            skills = self.model_.rows.skills
            few = len(skills) <= OPEN_AT_MOST
            given = self.model_.rowCount(title) if self._chosen else OPEN_AT_MOST
            # The skills first, the title last: under a closed row, opening one only marks it,
            # and opening the title then lays them all out once (not once per skill).
            for row, skill in enumerate(skills[:given]):
                chosen = self._chosen.get(skill.directory)
                if chosen is None:
                    chosen = row < OPEN_AT_MOST and (few or skill.directory == self._open_skill
                                                     or rank(skill.worst) >= rank(OPEN_LEVEL))
                if chosen:
                    self.expand(self.model_.index(row, 0, title))
            self.setExpanded(title, self._title_open)
        finally:
            self._restoring = False
        self.rebuilt.emit()

    def _on_expanded(self, index: QModelIndex) -> None:
        self._remember(index, True)

    def _on_collapsed(self, index: QModelIndex) -> None:
        self._remember(index, False)

    def _remember(self, index: QModelIndex, opened: bool) -> None:
        if self._restoring:
            return
        skill = self.model_.skill(index)
        if skill is not None:
            self._chosen[skill.directory] = opened
        elif index.isValid() and index.internalId() == TITLE:
            self._title_open = opened

    def _on_double_clicked(self, index: QModelIndex) -> None:
        problem = self.model_.problem(index)
        if problem is None:
            return
        if (problem.directory / problem.diagnostic.file).is_file():
            self.problem_activated.emit(problem)
        else:  # a folder, a link out of the skill, a file gone since: say where, open nothing
            QToolTip.showText(QCursor.pos(), self.model_.data(index, TOOLTIP), self)

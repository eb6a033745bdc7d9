"""The Security tab's view in the Problems panel: the scanner's findings per skill, filtered as
the panel filters; double-click goes to a finding as to any problem. The model's title row is
the view's root (the tab says what it said); with nothing to show, the view says why instead."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QToolTip,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from studio.threatscan import rank
from studio.ui.numbers import count_text, plural
from studio.ui.problems.findings import ProblemFilter
from studio.ui.problems.security_model import (
    CODE,
    CONFIDENCE,
    FILE,
    LINE,
    MESSAGE,
    SEVERITY,
    TOOLTIP,
    SecurityModel,
)
from studio.ui.problems.security_rows import (
    SkillFindings,
    level_counts,
    openable,
    security_rows,
)

# Skills holding a finding at this level or above are opened when shown, as many as this at
# most; the rest stay closed under their counts (a library may flag hundreds).
OPEN_LEVEL = "high"
OPEN_AT_MOST = 50
ABOUT = ("The skill scanner (`studio scan`) reads every file of each skill for threats: code "
         "that downloads and runs, secrets sent out, text hidden from a reader. What it finds "
         "is listed here, worst first; in the whole library, findings below medium show only "
         "for the open skill.")


class SecurityView(QTreeView):
    """The Security group.

    Attributes:
        model_: the rows shown.
        placeholder: what the view says when it shows no finding.

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
        # library is scanned): skills by their folder.
        self._chosen: dict[Path, bool] = {}
        self.placeholder = QLabel()
        self.placeholder.setObjectName("securityEmpty")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setTextFormat(Qt.TextFormat.PlainText)
        empty = QVBoxLayout(self.viewport())
        empty.setContentsMargins(24, 8, 24, 8)
        empty.addWidget(self.placeholder)
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
            self.setRootIndex(title)
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
        finally:
            self._restoring = False
        shown = bool(skills)
        self.header().setVisible(shown)
        self.placeholder.setVisible(not shown)
        if not shown:
            self.placeholder.setText(f"{self._empty_sentence()}\n\n{ABOUT}")
        self.rebuilt.emit()

    def _empty_sentence(self) -> str:
        if self._filter.active and self._scans:
            said = "No finding matches the filter."
        else:
            said = self._empty[:1].upper() + self._empty[1:].rstrip(".…")
            said += "…" if self._empty.endswith("…") else "."
        if self._pending:
            said += f" Still to scan: {plural(self._pending, 'skill')}."
        return said

    def summary(self) -> str:
        """The line over the tab: its counts, what the filter keeps, what is still to scan."""
        rows = self.model_.rows
        shown = sum(rows.counts.values())
        text = level_counts(rows.counts) or self._empty
        if shown:
            text += f" in {plural(len(rows.skills), 'skill')}"
            if self._filter.active:
                text += f" — showing {count_text(shown)} of {count_text(sum(rows.levels.values()))}"
        if self._pending:
            text += f"; scanning, {count_text(self._pending)} skills to go"
        return text[:1].upper() + text[1:]

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

    def _on_double_clicked(self, index: QModelIndex) -> None:
        problem = self.model_.problem(index)
        if problem is None:
            return
        if openable(problem.directory / problem.diagnostic.file):
            self.problem_activated.emit(problem)
        else:  # a folder, a link out of the skill, a file gone since: say where, open nothing
            QToolTip.showText(QCursor.pos(), self.model_.data(index, TOOLTIP), self)

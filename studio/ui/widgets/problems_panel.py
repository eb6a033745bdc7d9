"""The Problems panel: a table of diagnostics with a scope switch and a fix button."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.skills.collection import Problem
from studio.ui.models.problems_model import PROBLEM_ROLE, ProblemsModel

SCOPE_SKILL, SCOPE_LIBRARY = 0, 1


class ProblemsPanel(QWidget):
    """Shows `Problem`s; double-click goes to one, the fix button applies its fix.

    Signals:
        problem_activated: (Problem) the user wants to see where it is.
        fix_requested: (Problem) the user wants its fix applied.
        scope_changed: (int) SCOPE_SKILL or SCOPE_LIBRARY was picked.
    """

    problem_activated = Signal(object)
    fix_requested = Signal(object)
    scope_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(ProblemsModel.SEVERITY, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(ProblemsModel.SEVERITY, 28)
        header.setSectionResizeMode(ProblemsModel.CODE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ProblemsModel.MESSAGE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(ProblemsModel.SKILL, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(ProblemsModel.FILE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ProblemsModel.LINE, QHeaderView.ResizeMode.ResizeToContents)

        self.scope = QComboBox()
        self.scope.addItems(["Open skill", "Whole library"])
        self.scope.setToolTip("Show the problems of the skill being edited, or of every skill")
        self.summary = QLabel()
        self.summary.setObjectName("problemsSummary")
        self.fix_button = QPushButton("Fix")
        self.fix_button.setToolTip("Apply the fix offered for the selected problem (Ctrl+.)")
        self.fix_button.setEnabled(False)

        bar = QHBoxLayout()
        bar.setContentsMargins(6, 4, 6, 0)
        bar.addWidget(self.scope)
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.fix_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

        self.table.doubleClicked.connect(self._on_table_double_clicked)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.fix_button.clicked.connect(self._on_fix_button_clicked)
        self.scope.currentIndexChanged.connect(self._on_scope_current_index_changed)
        self._update_header()

    @property
    def library_scope(self) -> bool:
        return self.scope.currentIndex() == SCOPE_LIBRARY

    def set_problems(self, problems: list[Problem], empty_text: str = "") -> None:
        selected = self.selected_problem()
        self.model.set_problems(problems)
        if selected is not None:
            for row, problem in enumerate(problems):
                if problem.diagnostic.code == selected.diagnostic.code and (
                        problem.directory == selected.directory):
                    self.table.selectRow(row)
                    break
        errors = sum(1 for p in problems if str(p.diagnostic.severity) == "error")
        warnings = sum(1 for p in problems if str(p.diagnostic.severity) == "warning")
        if problems:
            text = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
            fixable = sum(1 for p in problems if p.diagnostic.fix is not None)
            if fixable:
                text += f" — {fixable} can be fixed automatically (⚡)"
        else:
            text = empty_text
        self.summary.setText(text)
        self._update_header()
        self._on_selection_changed()

    def selected_problem(self) -> Problem | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        problem = self.model.data(rows[0], PROBLEM_ROLE)
        return problem if isinstance(problem, Problem) else None

    def fixable_problem(self) -> Problem | None:
        """The selected problem if it has a fix, else the first one that has."""
        selected = self.selected_problem()
        if selected is not None and selected.diagnostic.fix is not None:
            return selected
        for problem in self.model.problems():
            if problem.diagnostic.fix is not None:
                return problem
        return None

    def _update_header(self) -> None:
        self.table.setColumnHidden(ProblemsModel.SKILL, not self.library_scope)

    def _on_table_double_clicked(self, index: QModelIndex) -> None:
        problem = self.model.data(index, PROBLEM_ROLE)
        if isinstance(problem, Problem):
            self.problem_activated.emit(problem)

    def _on_selection_changed(self) -> None:
        problem = self.fixable_problem()
        self.fix_button.setEnabled(problem is not None)
        if problem is not None and problem.diagnostic.fix is not None:
            self.fix_button.setText(f"Fix: {problem.diagnostic.fix.title}")
        else:
            self.fix_button.setText("Fix")

    def _on_fix_button_clicked(self) -> None:
        problem = self.fixable_problem()
        if problem is not None:
            self.fix_requested.emit(problem)

    def _on_scope_current_index_changed(self, index: int) -> None:
        self._update_header()
        self.scope_changed.emit(index)

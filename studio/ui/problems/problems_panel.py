"""The Problems panel: the findings of the open skill or the whole library, sortable by any
column, filtered by severity, code and text, flat or grouped by skill, with a fix button and a
context menu to fix every finding of a kind; beside them, in a tab of their own
(`source_tabs.py`), the skill scanner's findings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTableView,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from studio.skills import Severity
from studio.skills.library import Problem
from studio.ui.numbers import count_text, plural
from studio.ui.problems.columns import size_columns
from studio.ui.problems.findings import Findings, ProblemFilter
from studio.ui.problems.problems_model import ProblemsModel
from studio.ui.problems.security_view import SecurityView
from studio.ui.problems.source_tabs import PROBLEMS_TAB, SECURITY_TAB, SourceTabs
from studio.ui.selector import Selector

SCOPE_SKILL, SCOPE_LIBRARY = 0, 1
FIX_LABEL_SAMPLE = "Fix: Separate the tools with spaces"
FIX_TIP = "Apply the fix offered for the selected problem (Ctrl+.)"
FILTER_DELAY_MS = 150
SEVERITIES = (("All severities", ""), ("Errors", "error"), ("Warnings", "warning"),
              ("Notes", "info"))


class ProblemsPanel(QWidget):
    """Shows `Problem`s; double-click goes to one, the fix button applies its fix.

    Attributes:
        model: the findings and how they are shown.
        table: the view (a tree: flat rows, or skills holding their findings).
        sources: the tabs, Problems and Security, each with its count.
        security: the scanner's findings (the Security tab).

    Signals:
        problem_activated: (Problem) the user wants to see where it is.
        fix_requested: (Problem) the user wants its fix applied.
        fix_all_requested: (str code, list[Path] skill folders) fix every finding of that code.
        scope_changed: (int) SCOPE_SKILL or SCOPE_LIBRARY was picked.
    """

    problem_activated = Signal(object)
    fix_requested = Signal(object)
    fix_all_requested = Signal(str, list)
    scope_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemsModel(self)
        # Flat, a table: it lays out no rows it does not paint. Grouped, a tree, which walks
        # every visible row on each reset (a call into the model per row), so it holds the
        # model only while it is shown, when its top level is one row per skill.
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setShowGrid(False)
        self.tree = QTreeView()
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(14)
        self.tree.setAnimated(False)
        self.tree.setAllColumnsShowFocus(True)
        for view in (self.table, self.tree):
            view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            view.setAlternatingRowColors(True)
            view.setWordWrap(False)
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.doubleClicked.connect(self._on_table_double_clicked)
            view.customContextMenuRequested.connect(self._on_table_context_menu_requested)
        self.views = QStackedWidget()
        self.views.addWidget(self.table)
        self.views.addWidget(self.tree)
        size_columns(self.table.horizontalHeader(), self.fontMetrics())
        self.table.horizontalHeader().setSortIndicatorShown(True)
        self.table.sortByColumn(ProblemsModel.SEVERITY, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)

        self.scope = Selector()
        self.scope.addItems(["Open skill", "Whole library"])
        self.scope.setToolTip("Show the problems of the skill being edited, or of every skill")
        self.group_button = QToolButton()
        self.group_button.setText("Group by skill")
        self.group_button.setCheckable(True)
        self.group_button.setToolTip("Show each skill with its findings under it")
        self.severity = Selector()
        for label, value in SEVERITIES:
            self.severity.addItem(label, value)
        self.severity.setToolTip("Show only findings of this severity")
        self.code = Selector()
        self.code.setToolTip("Show only findings with this code")
        self.code.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.code.addItem("All codes", "")
        self.text_filter = QLineEdit()
        self.text_filter.setPlaceholderText("Filter by text, code, skill or file")
        self.text_filter.setClearButtonEnabled(True)
        self.fix_button = QPushButton("Fix")
        self.fix_button.setToolTip(FIX_TIP)
        self.fix_button.setEnabled(False)
        # As wide as a usual fix's label, longer ones elided (whole in the tooltip): a button
        # that grew with its label took the room of the text filter beside it.
        self.fix_button.setText(FIX_LABEL_SAMPLE)
        self.fix_button.setFixedWidth(self.fix_button.sizeHint().width())
        self._fix_label_width = self.fix_button.fontMetrics().horizontalAdvance(FIX_LABEL_SAMPLE)
        self.fix_button.setText("Fix")
        self.fix_every_action = QAction("Fix Every…", self)
        self.fix_every_action.setIconText("Fix Every…")
        self.fix_every_action.setEnabled(False)
        self.fix_every_action.triggered.connect(self._on_fix_every_action_triggered)
        self.fix_every_button = QToolButton()
        self.fix_every_button.setDefaultAction(self.fix_every_action)
        self.summary = QLabel()
        self.summary.setObjectName("problemsSummary")
        self.roots_summary = QLabel()
        self.roots_summary.setObjectName("problemsRoots")
        self.roots_summary.setWordWrap(True)
        self.roots_summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.roots_summary.hide()

        bar = QHBoxLayout()
        bar.setContentsMargins(6, 4, 6, 0)
        bar.addWidget(self.scope)
        bar.addWidget(self.group_button)
        bar.addWidget(self.severity)
        bar.addWidget(self.code)
        bar.addWidget(self.text_filter, 1)
        bar.addWidget(self.fix_button)
        bar.addWidget(self.fix_every_button)
        # The scanner's findings in a tab of their own (see security_rows.py for what it shows),
        # on the summary's line: the tabs take no room of the list's.
        self.security = SecurityView()
        self.security.problem_activated.connect(self.problem_activated)
        self.security.rebuilt.connect(self._on_security_rebuilt)
        self.sources = SourceTabs()
        self.pages = QStackedWidget()
        problems_page = QWidget()
        problems_layout = QVBoxLayout(problems_page)
        problems_layout.setContentsMargins(0, 0, 0, 0)
        problems_layout.setSpacing(2)
        problems_layout.addWidget(self.roots_summary)
        problems_layout.addWidget(self.views, 1)
        self.pages.addWidget(problems_page)
        self.pages.addWidget(self.security)
        line = QHBoxLayout()
        line.setContentsMargins(6, 0, 6, 0)
        line.addWidget(self.sources)
        line.addWidget(self.summary, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addLayout(line)
        layout.addWidget(self.pages, 1)
        self.roots_summary.setContentsMargins(8, 0, 6, 0)

        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self.apply_filter)
        self._empty_text = ""
        self._reselect: Problem | None = None
        self._menu: QMenu | None = None

        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
        self.model.rebuilt.connect(self._on_model_rebuilt)
        self.fix_button.clicked.connect(self._on_fix_button_clicked)
        self.scope.currentIndexChanged.connect(self._on_scope_current_index_changed)
        self.group_button.toggled.connect(self._on_group_button_toggled)
        self.severity.currentIndexChanged.connect(self.apply_filter)
        self.code.currentIndexChanged.connect(self.apply_filter)
        self.text_filter.textChanged.connect(self._on_text_filter_text_changed)
        self.sources.currentChanged.connect(self._on_sources_current_changed)
        self._update_header()
        self.sources.count_security(self.security.model_)

    @property
    def view(self) -> QTableView | QTreeView:
        """The view shown: the table, or the tree when grouped."""
        return self.tree if self.model.findings.grouped else self.table

    @property
    def security_shown(self) -> bool:
        """Whether the Security tab is the one shown."""
        return self.sources.currentIndex() == SECURITY_TAB

    def show_security(self) -> None:
        self.sources.setCurrentIndex(SECURITY_TAB)

    @property
    def library_scope(self) -> bool:
        return self.scope.currentIndex() == SCOPE_LIBRARY

    def set_problems(self, problems: list[Problem], empty_text: str = "") -> None:
        """Show `problems` (as filtered and sorted now)."""
        self._empty_text = empty_text
        self.show_roots_summary(None)
        self.model.set_problems(problems)

    def set_findings(self, findings: Findings, empty_text: str = "",
                     roots_summary: list[str] | None = None) -> None:
        """Show the findings of many skills ((folder, name, diagnostics) each, as the core's
        `Library.findings` gives them); `roots_summary` is one line per root."""
        self._empty_text = empty_text
        self.show_roots_summary(roots_summary)
        self.model.set_findings(findings)

    def show_roots_summary(self, lines: list[str] | None) -> None:
        """Show one line per root above the findings (none: hide them)."""
        self.roots_summary.setText("\n".join(lines or []))
        self.roots_summary.setVisible(bool(lines))

    def _on_model_about_to_be_reset(self) -> None:
        self._reselect = self._reselect or self.selected_problem()

    def _on_model_rebuilt(self) -> None:
        self.sources.count_problems(self.model.findings.finding_count())
        self._fill_codes()
        selected, self._reselect = self._reselect, None
        if selected is not None:
            self.select_problem(selected)
        self._update_summary()
        self._update_header()
        self._on_selection_changed()

    def _fill_codes(self) -> None:
        counts = self.model.findings.code_counts + self.security.model_.rows.codes
        current = self.code.currentData() or ""
        self.code.blockSignals(True)
        try:
            self.code.clear()
            self.code.addItem("All codes", "")
            for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
                self.code.addItem(f"{code} ({count_text(count)})", code)
            found = self.code.findData(current) if current else 0
            if found < 0:
                self.code.addItem(f"{current} (0)", current)
                found = self.code.count() - 1
            self.code.setCurrentIndex(found)
        finally:
            self.code.blockSignals(False)

    def _on_security_rebuilt(self) -> None:
        self._fill_codes()
        self.sources.count_security(self.security.model_)
        if self.security_shown:
            self._update_summary()

    def _update_summary(self) -> None:
        if self.security_shown:
            self.summary.setText(self.security.summary())
            return
        total = self.model.findings.finding_count()
        if not total:
            self.summary.setText(self._empty_text)
            return
        severities = self.model.findings.severity_counts
        errors, warnings = severities[Severity.ERROR], severities[Severity.WARNING]
        text = f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
        others = total - errors - warnings
        if others:
            text += f", {plural(others, 'note')}"
        fixable = self.model.findings.fixable_count
        if fixable:
            text += f" — {count_text(fixable)} can be fixed automatically (⚡)"
        if self.model.findings.filter.active:
            text += f" — showing {count_text(len(self.model.findings.shown))} that match"
        if self.model.findings.grouped:
            text += f" in {plural(len(self.model.findings.groups), 'skill')}"
        self.summary.setText(text)

    def apply_filter(self) -> None:
        self._filter_timer.stop()
        wanted = ProblemFilter(str(self.severity.currentData() or ""),
                               str(self.code.currentData() or ""), self.text_filter.text())
        self.model.set_filter(wanted)
        self.security.set_filter(wanted)

    def show_code(self, code: str) -> None:
        found = self.code.findData(code)
        if found >= 0:
            self.code.setCurrentIndex(found)

    def select_row(self, row: int) -> None:
        """Select the `row`th finding shown (groups flattened), opening its group."""
        problem = self.model.findings.shown_problem(row)
        if problem is not None:
            self.select_problem(problem)

    def select_problem(self, problem: Problem) -> bool:
        index = self.model.index_of(problem)
        if not index.isValid():
            return False
        if index.parent().isValid():
            self.tree.expand(index.parent())
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def selected_problem(self) -> Problem | None:
        return self.model.problem(self.view.currentIndex())

    def fixable_problem(self) -> Problem | None:
        """The selected problem if it has a fix, else the first one shown that has."""
        selected = self.selected_problem()
        if selected is not None and selected.diagnostic.fix is not None:
            return selected
        return self.model.findings.first_fixable()

    def skills_with_code(self, code: str) -> list[Path]:
        """The folders of the skills with a finding of `code` (shown or not), in library order."""
        return self.model.findings.skills_with_code(code)

    def _update_header(self) -> None:
        self.table.setColumnHidden(ProblemsModel.SKILL, not self.library_scope)
        if self.model.findings.grouped:
            self.tree.setColumnHidden(ProblemsModel.SKILL, True)

    def _on_table_double_clicked(self, index: QModelIndex) -> None:
        problem = self.model.problem(index)
        if problem is not None:
            self.problem_activated.emit(problem)

    def _on_table_context_menu_requested(self, point: QPoint) -> None:
        index = self.view.indexAt(point)
        problem = self.model.problem(index)
        group = self.model.group(index)
        if problem is not None:
            codes = [problem.diagnostic.code]
        elif group is not None:
            codes = self.model.findings.group_codes(group)
        else:
            return
        if self._menu is not None:
            self._menu.deleteLater()
        menu = self._menu = QMenu(self)
        for code in codes:
            folders = self.skills_with_code(code)
            fix_all = menu.addAction(f"Fix Every {code} in {plural(len(folders), 'Skill')}…")
            fix_all.setStatusTip("Preview the fixes of every finding with this code, then apply "
                                 "them as one step you can undo")
            fix_all.triggered.connect(
                lambda _checked=False, c=code, f=folders: self.fix_all_requested.emit(c, f))
        menu.addSeparator()
        for code in codes:
            only = menu.addAction(f"Show Only {code}")
            only.triggered.connect(lambda _checked=False, c=code: self.show_code(c))
        if problem is not None:
            go = menu.addAction("Go to Problem")
            go.triggered.connect(lambda: self.problem_activated.emit(problem))
        menu.popup(self.view.viewport().mapToGlobal(point))

    def _on_selection_changed(self) -> None:
        problem = self.fixable_problem()
        fix = problem.diagnostic.fix if problem is not None else None
        self.fix_button.setEnabled(fix is not None)
        label = f"Fix: {fix.title}" if fix is not None else "Fix"
        self.fix_button.setText(self.fix_button.fontMetrics().elidedText(
            label, Qt.TextElideMode.ElideRight, self._fix_label_width).replace("&", "&&"))
        self.fix_button.setToolTip(f"{label}\n{FIX_TIP}" if fix is not None else FIX_TIP)
        code = self.fix_every_code()
        self.fix_every_action.setEnabled(code is not None)
        if code is None:
            self.fix_every_action.setText("Fix Every…")
            self.fix_every_action.setToolTip("Select a problem that has a fix (⚡) to fix every "
                                             "finding with its code")
            return
        count = self.model.findings.code_counts.get(code, 0)
        self.fix_every_action.setText(f"Fix Every {code}…")
        self.fix_every_action.setToolTip(
            f"Preview the fixes of every finding with code {code} ({count_text(count)} found), "
            "then apply them as one step you can undo")
        self.fix_every_action.setStatusTip(self.fix_every_action.toolTip())

    def fix_every_code(self) -> str | None:
        """The code Fix Every fixes: the selected finding's when it has a fix, or at library
        scope, where findings come without their fixes (the preview works them out), when it
        is selected at all; else the code of the finding the Fix button fixes."""
        selected = self.selected_problem()
        if selected is not None and (selected.diagnostic.fix is not None or self.library_scope):
            return selected.diagnostic.code
        problem = self.fixable_problem()
        return problem.diagnostic.code if problem is not None else None

    def _on_fix_every_action_triggered(self) -> None:
        code = self.fix_every_code()
        if code is not None:
            self.fix_all_requested.emit(code, self.skills_with_code(code))

    def _on_fix_button_clicked(self) -> None:
        problem = self.fixable_problem()
        if problem is not None:
            self.fix_requested.emit(problem)

    def _on_scope_current_index_changed(self, index: int) -> None:
        self._update_header()
        self.scope_changed.emit(index)

    def _on_group_button_toggled(self, grouped: bool) -> None:
        if not grouped:
            self.views.setCurrentWidget(self.table)
            self.tree.setModel(None)
        self.model.set_grouped(grouped)
        if grouped:
            self.tree.setModel(self.model)
            size_columns(self.tree.header(), self.fontMetrics())
            self.tree.header().resizeSection(ProblemsModel.SEVERITY, 48)
            self.tree.header().setSortIndicator(self.model.findings.sort_column, self.model.sort_order)
            self.tree.setSortingEnabled(True)
            self.tree.selectionModel().selectionChanged.connect(self._on_selection_changed)
            self.views.setCurrentWidget(self.tree)
        else:
            self.table.horizontalHeader().setSortIndicator(self.model.findings.sort_column,
                                                           self.model.sort_order)
        self._update_header()

    def _on_sources_current_changed(self, index: int) -> None:
        self.pages.setCurrentIndex(index)
        # What acts on the validator's problems only is hidden while the scanner's are shown.
        for widget in (self.group_button, self.fix_button, self.fix_every_button):
            widget.setVisible(index == PROBLEMS_TAB)
        self._update_summary()

    def _on_text_filter_text_changed(self, _text: str) -> None:
        self._filter_timer.start()

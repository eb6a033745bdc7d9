"""The results of a run of a skill's evals: the figures and the chart on top; below, tables of
each eval with the skill, without it and on the baseline, each trigger query's rate and its runs,
the benchmark of each configuration with this version's change, and the analysis and blind
comparison; beside them, the review of the result picked (`review`)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.evals import (
    EvalResult,
    HistoryEntry,
    SkillReport,
    analysis_notes,
    benchmark,
    comparison_summary,
    pass_rate,
    percent,
)
from studio.ui.chat.transcript import Transcript
from studio.ui.editor.form_fold import TabLayout
from studio.ui.evals.models import (
    BenchmarkModel,
    EvalResultsModel,
    RatesModel,
    TriggerResultsModel,
    sentence,
    summary_text,
)
from studio.ui.evals.review import ReviewPane

STRETCH = QHeaderView.ResizeMode.Stretch
FIT = QHeaderView.ResizeMode.ResizeToContents


def fitted_table(model: QAbstractTableModel, stretch: tuple[int, ...]) -> QTableView:
    """A read-only table whose columns share its width (the `stretch` ones take what the others
    leave, their text wrapped), so it never scrolls sideways."""
    view = QTableView()
    view.setModel(model)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
    view.setWordWrap(True)
    view.verticalHeader().hide()
    view.verticalHeader().setSectionResizeMode(FIT)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    header = view.horizontalHeader()
    header.setMinimumSectionSize(30)
    for column in range(model.columnCount()):
        header.setSectionResizeMode(column, STRETCH if column in stretch else FIT)
    return view


class ResultsView(QWidget):
    """The figures, the result tables and the review of the result picked.

    Attributes:
        report: the report shown (None before the first run).
        tables: the tabs of the result tables.
        review: the result picked, with its note and transcript.
    """

    def __init__(self, tab_layout: TabLayout, skill_dir: Callable[[], Path | None],
                 side: QWidget | None = None, parent: QWidget | None = None) -> None:
        """`skill_dir`: where review notes are kept (see `ReviewPane`); `side`: shown right of
        the figures (the pass rate chart)."""
        super().__init__(parent)
        self.report: SkillReport | None = None
        self.summary = QLabel("Run the evals to see how the skill does on your model.")
        self.summary.setObjectName("evalSummary")
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.evals_model = EvalResultsModel(self)
        self.evals_view = fitted_table(self.evals_model, (2, 3, 4, 5))
        self.rates_model = RatesModel(self)
        self.rates_view = fitted_table(self.rates_model, (0,))
        self.triggers_model = TriggerResultsModel(self)
        self.triggers_view = fitted_table(self.triggers_model, (0, 5))
        self.benchmark_model = BenchmarkModel(self)
        self.benchmark_view = fitted_table(self.benchmark_model, (0, 5))
        for view, name in ((self.evals_view, "Eval results"),
                           (self.rates_view, "Trigger rate of each query"),
                           (self.triggers_view, "Trigger query runs"),
                           (self.benchmark_view, "Benchmark figures beside the baselines")):
            view.setAccessibleName(name)
        self.analysis = QLabel("The analysis of a run with a baseline, or of several runs, "
                               "shows here.")
        self.analysis.setObjectName("evalAnalysis")
        self.analysis.setWordWrap(True)
        self.analysis.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.analysis.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        analysis = QScrollArea()
        analysis.setWidget(self.analysis)
        analysis.setWidgetResizable(True)
        analysis.setFrameShape(QFrame.Shape.NoFrame)
        analysis.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.review = ReviewPane(tab_layout, skill_dir)

        self.tables = QTabWidget()
        self.tables.setDocumentMode(True)
        self.tables.addTab(self.evals_view, "Evals")
        self.tables.addTab(self.rates_view, "Queries")
        self.tables.addTab(self.triggers_view, "Query Runs")
        self.tables.addTab(self.benchmark_view, "Benchmark")
        self.tables.addTab(analysis, "Analysis")
        self.tables.setTabToolTip(1, "Each trigger query over its runs: how often the skill was "
                                     "picked, and whether that is right at the threshold")
        self.tables.setTabToolTip(3, "Seconds and tokens a run, mean ± spread, beside the "
                                     "baselines, and what this version changes")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tables)
        split.addWidget(self.review)
        split.setChildrenCollapsible(False)
        tab_layout.follow("evals.results", split, [600, 400])
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        if side is not None:
            top.addWidget(side, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.evals_view.selectionModel().currentChanged.connect(self._on_evals_view_current_changed)
        self.evals_view.clicked.connect(self._on_evals_view_clicked)
        self.triggers_view.selectionModel().currentChanged.connect(
            self._on_triggers_view_current_changed)
        self.triggers_view.clicked.connect(self._on_triggers_view_clicked)
        self.review.note_saved.connect(self.evals_model.set_note)
        self.review.note_saved.connect(self._on_review_note_saved)

    @property
    def verdicts(self) -> QLabel:
        return self.review.verdicts

    @property
    def transcript(self) -> Transcript:
        return self.review.transcript

    def show_report(self, report: SkillReport | None,
                    previous: HistoryEntry | None = None) -> None:
        """Show a run (or a saved iteration); `previous` is the version before it in the
        history, shown in the benchmark."""
        self.report = report
        self.summary.setText(summary_text(report) if report is not None else "")
        self.triggers_model.set_report(report.trigger if report is not None else None)
        self.rates_model.set_report(report.trigger if report is not None else None)
        self.evals_model.set_report(report)
        for column in range(self.evals_model.columnCount()):
            self.evals_view.setColumnHidden(column, not self.evals_model.has_column(column))
        self.benchmark_model.set_figures(benchmark(report) if report is not None else [],
                                         previous)
        self.analysis.setText(analysis_html(report) if report is not None else "")
        self.show_result(None)

    def show_result(self, found: tuple[EvalResult, str] | None) -> None:
        """Show a result's verdicts, output, note and transcript (None: clear them)."""
        note = self.evals_model.feedback.get(found[0].id, "") if found is not None else ""
        self.review.show_result(found, note)

    def baseline_for_chart(self) -> tuple[tuple[str, float] | None, str]:
        """The baseline's name and pass rate for the chart, and this version's change over it
        (an earlier version run again, else the previous version in the history)."""
        report, figures = self.report, self.benchmark_model
        if report is None or not report.evals:
            return None, ""
        previous = figures.previous
        if report.old_skill:
            rate = pass_rate(report.old_skill)
            baseline = (f"at {report.old_ref}: {percent(rate)}", rate or 0.0)
            change = figures.row(1)[5]
        elif previous is not None and previous.pass_rate is not None:
            baseline = (f"previous version: {percent(previous.pass_rate)}", previous.pass_rate)
            change = figures.row(figures.rowCount() - 1)[5]
        else:
            return None, ""
        return baseline, f"this version: {change}" if change else ""

    def _on_review_note_saved(self, _eval_id: str, _note: str) -> None:
        if self.evals_model.has_column(EvalResultsModel.NOTE):
            self.evals_view.setColumnHidden(EvalResultsModel.NOTE, False)

    def _on_triggers_view_current_changed(self, current: QModelIndex,
                                          _previous: QModelIndex) -> None:
        report = self.triggers_model.report
        if current.isValid() and report is not None and current.row() < len(report.queries):
            self.review.show_query(report.queries[current.row()])

    def _on_triggers_view_clicked(self, index: QModelIndex) -> None:
        self._on_triggers_view_current_changed(index, index)

    def _on_evals_view_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        found = self.evals_model.result_at(current)
        if found is not None:
            self.show_result(found)

    def _on_evals_view_clicked(self, index: QModelIndex) -> None:
        self._on_evals_view_current_changed(index, index)


def analysis_html(report: SkillReport) -> str:
    """The analysis (the core's notes) and the blind comparison with each verdict's reason."""
    lines = [html.escape(note) for note in analysis_notes(report)]
    if report.comparisons:
        lines.append("<b>" + html.escape(sentence(comparison_summary(report))) + "</b>")
        shown = {"new": "this version", "old": "the baseline", "tie": "a tie", "none": "no verdict"}
        for comparison in report.comparisons:
            winner = shown.get(str(comparison.get("winner")), "no verdict")
            lines.append(f"eval {html.escape(str(comparison.get('eval_id')))} run "
                         f"{comparison.get('run')}: {winner}: "
                         f"{html.escape(str(comparison.get('reasoning', '')))}")
    lines += [html.escape(note) for note in report.notes]
    if not lines:
        return ("Nothing to say yet: run the evals several times, or with a baseline (without "
                "the skill, or an earlier version), to see which expectations tell them apart.")
    return "<br>".join(lines)

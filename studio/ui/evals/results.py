"""The results of a run of a skill's evals: precision and recall over the trigger queries, each
outcome eval with and without the skill side by side, and the transcript of the run picked,
shown with the chat's own cards (read-only: nothing in it can be run again)."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.evals.report import EvalResult, QueryResult, SkillReport, TriggerReport, pass_rate
from studio.evals.trace import transcript_messages
from studio.ui.chat.transcript import Transcript

Index = QModelIndex | QPersistentModelIndex
PASSED = QColor(45, 164, 78, 60)
FAILED = QColor(210, 58, 58, 60)


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def summary_text(report: SkillReport) -> str:
    """One line of figures: precision and recall, and the pass rates with and without."""
    parts = []
    trigger = report.trigger
    if trigger is not None:
        text = (f"Triggers: precision {percent(trigger.precision)}, recall "
                f"{percent(trigger.recall)} over {len(trigger.queries)} query runs")
        if trigger.runs > 1:
            spread = trigger.spread()
            text += " (run by run: " + ", ".join(
                f"{name} {percent(figure.mean)} ± {percent(figure.stdev)}"
                for name, figure in spread.items()) + ")"
        parts.append(text)
    if report.evals:
        passed = sum(r.passed for r in report.evals)
        text = f"Evals: {passed} of {len(report.evals)} passed ({percent(pass_rate(report.evals))})"
        if report.without_skill:
            text += f"; without the skill: {percent(pass_rate(report.without_skill))}"
        parts.append(text)
    if report.cached:
        parts.append(f"{report.cached} reused from the cache")
    if report.cancelled:
        parts.append("stopped before the end")
    return " · ".join(parts) or "Nothing ran."


def result_text(result: EvalResult) -> str:
    if result.passed:
        return f"PASS · {result.rounds} rounds · {result.seconds:.1f} s"
    failed = [f"{v.text}: {v.reason}" for v in result.expectations if not v.passed]
    if result.outcome != "answered":
        failed.insert(0, f"the run ended: {result.outcome}")
    return "FAIL · " + "; ".join(failed)


def verdicts_html(result: EvalResult, label: str) -> str:
    lines = [f"<b>Eval {html.escape(result.id)}, run {result.run}, {label}:</b> "
             + ("passed" if result.passed else "failed")
             + f" ({result.rounds} rounds, {result.seconds:.1f} s, {html.escape(result.outcome)})"]
    for verdict in result.expectations:
        mark = "✓" if verdict.passed else "✗"
        lines.append(f"{mark} {html.escape(verdict.text)} <i>({verdict.how})</i>: "
                     f"{html.escape(verdict.reason)}")
    return "<br>".join(lines)


class _ResultsTable(QAbstractTableModel):
    """A read-only table of results with fixed column titles."""

    HEADERS: tuple[str, ...] = ()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None


class TriggerResultsModel(_ResultsTable):
    """One row per trigger query and run."""

    HEADERS = ("Query", "Should", "Run", "Picked", "Result", "First call")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.report: TriggerReport | None = None

    def set_report(self, report: TriggerReport | None) -> None:
        self.beginResetModel()
        self.report = report
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() or self.report is None else len(self.report.queries)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.report is None:
            return None
        query = self.report.queries[index.row()]
        right = query.triggered == query.should_trigger
        if role == Qt.ItemDataRole.DisplayRole:
            return (query.query, "yes" if query.should_trigger else "no", query.run,
                    "yes" if query.triggered else "no", "right" if right else "WRONG",
                    query.first_call or "(answered)")[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole and index.column() == 4:
            return QBrush(PASSED if right else FAILED)
        if role == Qt.ItemDataRole.ToolTipRole:
            return query.query
        return None


class EvalResultsModel(_ResultsTable):
    """One row per outcome eval and run: its result with the skill and without it."""

    HEADERS = ("Eval", "Run", "With the skill", "Without the skill")
    WITH, WITHOUT = 2, 3

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, int]] = []
        self._with: dict[tuple[str, int], EvalResult] = {}
        self._without: dict[tuple[str, int], EvalResult] = {}

    def set_report(self, report: SkillReport | None) -> None:
        self.beginResetModel()
        evals = report.evals if report is not None else []
        without = report.without_skill or [] if report is not None else []
        self._with = {(r.id, r.run): r for r in evals}
        self._without = {(r.id, r.run): r for r in without}
        self.rows = list(dict.fromkeys([*self._with, *self._without]))
        self.endResetModel()

    def result_at(self, index: Index) -> tuple[EvalResult, str] | None:
        """The result in a cell of the two result columns, and which side it is."""
        if not index.isValid() or index.column() not in (self.WITH, self.WITHOUT):
            return None
        key = self.rows[index.row()]
        if index.column() == self.WITH:
            found = self._with.get(key)
            return (found, "with the skill") if found is not None else None
        found = self._without.get(key)
        return (found, "without the skill") if found is not None else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        case, run = self.rows[index.row()]
        found = self.result_at(index)
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return case
            if index.column() == 1:
                return run
            return result_text(found[0]) if found is not None else "not run"
        if role == Qt.ItemDataRole.BackgroundRole and found is not None:
            return QBrush(PASSED if found[0].passed else FAILED)
        if role == Qt.ItemDataRole.ToolTipRole and found is not None:
            return verdicts_html(*found)
        return None


class ResultsView(QWidget):
    """The figures, the two result tables and the transcript of the result picked."""

    def __init__(self, side: QWidget | None = None, parent: QWidget | None = None) -> None:
        """`side`: shown right of the figures (the pass rate chart)."""
        super().__init__(parent)
        self.report: SkillReport | None = None
        self.summary = QLabel("Run the evals to see how the skill does on your model.")
        self.summary.setObjectName("evalSummary")
        self.summary.setWordWrap(True)
        self.triggers_model = TriggerResultsModel(self)
        self.triggers_view = self._table(self.triggers_model, 0, "Trigger results")
        self.evals_model = EvalResultsModel(self)
        self.evals_view = self._table(self.evals_model, None, "Eval results")
        header = self.evals_view.horizontalHeader()
        for column in (EvalResultsModel.WITH, EvalResultsModel.WITHOUT):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        for view, columns in ((self.evals_view, (0, 1)), (self.triggers_view, (1, 2, 3, 4, 5))):
            for column in columns:
                view.horizontalHeader().setSectionResizeMode(
                    column, QHeaderView.ResizeMode.ResizeToContents)
        self.verdicts = QLabel()
        self.verdicts.setObjectName("evalVerdicts")
        self.verdicts.setWordWrap(True)
        self.verdicts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.transcript = Transcript()
        self.transcript.set_placeholder("Pick a result to see its transcript.")

        verdicts = QScrollArea()
        verdicts.setWidget(self.verdicts)
        verdicts.setWidgetResizable(True)
        verdicts.setFrameShape(QFrame.Shape.NoFrame)
        tables = QSplitter(Qt.Orientation.Vertical)
        tables.addWidget(self.triggers_view)
        tables.addWidget(self.evals_view)
        detail = QSplitter(Qt.Orientation.Vertical)
        detail.addWidget(verdicts)
        detail.addWidget(self.transcript)
        detail.setSizes([150, 300])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(tables)
        split.addWidget(detail)
        split.setSizes([560, 460])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        if side is not None:
            top.addWidget(side, 1)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.evals_view.selectionModel().currentChanged.connect(self._on_evals_view_current_changed)
        self.evals_view.clicked.connect(self._on_evals_view_clicked)
        self.triggers_view.selectionModel().currentChanged.connect(
            self._on_triggers_view_current_changed)
        self.triggers_view.clicked.connect(self._on_triggers_view_clicked)

    def _table(self, model: QAbstractTableModel, stretch: int | None, name: str) -> QTableView:
        view = QTableView()
        view.setAccessibleName(name)
        view.setModel(model)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setWordWrap(True)
        view.verticalHeader().hide()
        if stretch is not None:
            view.horizontalHeader().setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
        return view

    def show_report(self, report: SkillReport | None) -> None:
        self.report = report
        self.summary.setText(summary_text(report) if report is not None else "")
        self.triggers_model.set_report(report.trigger if report is not None else None)
        self.triggers_view.setVisible(report is not None and report.trigger is not None)
        self.evals_model.set_report(report)
        self.show_result(None)

    def show_result(self, found: tuple[EvalResult, str] | None) -> None:
        """Show a result's verdicts and transcript (None: clear them)."""
        if found is None:
            self.verdicts.setText("")
            self.transcript.show_messages([])
            return
        result, label = found
        self.verdicts.setText(verdicts_html(result, label))
        messages = transcript_messages(result.trace)
        self.transcript.show_messages(messages)
        if not messages:
            self.transcript.set_placeholder("This result was kept without its transcript; run "
                                            "it again with the cache cleared to see one.")

    def show_query(self, query: QueryResult) -> None:
        """Show a trigger query's run: what it should have done, what it did, its transcript."""
        right = query.triggered == query.should_trigger
        did = (f"first called {html.escape(query.first_call)}" if query.called
               else "answered without calling a tool")
        should = "should pick the skill" if query.should_trigger else "should not pick the skill"
        self.verdicts.setText(f"<b>{'Right' if right else 'Wrong'}</b> (run {query.run}): the "
                              f"query {should}; the model {did}.")
        messages = transcript_messages(query.trace)
        self.transcript.show_messages(messages)
        if not messages:
            self.transcript.set_placeholder("This result was kept without its transcript; run "
                                            "it again with the cache cleared to see one.")

    def _on_triggers_view_current_changed(self, current: QModelIndex,
                                          _previous: QModelIndex) -> None:
        report = self.triggers_model.report
        if current.isValid() and report is not None and current.row() < len(report.queries):
            self.show_query(report.queries[current.row()])

    def _on_triggers_view_clicked(self, index: QModelIndex) -> None:
        self._on_triggers_view_current_changed(index, index)

    def _on_evals_view_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        found = self.evals_model.result_at(current)
        if found is not None:
            self.show_result(found)

    def _on_evals_view_clicked(self, index: QModelIndex) -> None:
        self._on_evals_view_current_changed(index, index)

"""Table models over a run's report (`studio.evals.report`): each trigger query's rate, each
query's runs, each eval with the skill, without it and on the baseline (with the author's note),
and the benchmark of each configuration. They adapt the report; they copy nothing out of it."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from studio.evals import (
    EvalResult,
    Figures,
    HistoryEntry,
    QueryRate,
    SkillReport,
    TriggerReport,
    comparison_summary,
    pass_rate,
    percent,
)

Index = QModelIndex | QPersistentModelIndex
PASSED = QColor(45, 164, 78, 60)
FAILED = QColor(210, 58, 58, 60)
DISPLAY = Qt.ItemDataRole.DisplayRole


def sentence(text: str) -> str:
    """`text` with its first letter a capital (the rest as it is: "at HEAD" -> "At HEAD")."""
    return text[:1].upper() + text[1:]


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
            rates = trigger.rates()
            text += (f"; per query at a rate of {trigger.threshold:.0%}: "
                     f"{sum(r.passed for r in rates)} of {len(rates)} right")
        parts.append(text)
    if report.evals:
        passed = sum(r.passed for r in report.evals)
        text = f"Evals: {passed} of {len(report.evals)} passed ({percent(pass_rate(report.evals))})"
        if report.without_skill:
            text += f"; without the skill: {percent(pass_rate(report.without_skill))}"
        if report.old_skill:
            text += f"; at {report.old_ref}: {percent(pass_rate(report.old_skill))}"
        parts.append(text)
    if report.comparisons:
        parts.append(sentence(comparison_summary(report)))
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
    # The first reason, whole; the rest are in the tooltip and the review (a cell that holds
    # every reason is taller than the table).
    more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
    return "FAIL · " + (failed[0] if failed else "") + more


def verdicts_html(result: EvalResult, label: str) -> str:
    lines = [f"<b>Eval {html.escape(result.id)}, run {result.run}, {label}:</b> "
             + ("passed" if result.passed else "failed")
             + f" ({result.rounds} rounds, {result.seconds:.1f} s, {result.tokens:,} tokens, "
             f"{html.escape(result.outcome)})"]
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

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == DISPLAY:
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

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or self.report is None:
            return None
        query = self.report.queries[index.row()]
        right = query.triggered == query.should_trigger
        if role == DISPLAY:
            return (query.query, "yes" if query.should_trigger else "no", query.run,
                    "yes" if query.triggered else "no", "right" if right else "WRONG",
                    query.first_call or "(answered)")[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole and index.column() == 4:
            return QBrush(PASSED if right else FAILED)
        if role == Qt.ItemDataRole.ToolTipRole:
            return query.query
        return None


class RatesModel(_ResultsTable):
    """One row per trigger query: how often its runs picked the skill, and whether that rate is
    right at the run's threshold."""

    HEADERS = ("Query", "Should", "Picked", "Rate", "Result")
    RESULT = 4

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rates: list[QueryRate] = []

    def set_report(self, report: TriggerReport | None) -> None:
        self.beginResetModel()
        self.rates = report.rates() if report is not None else []
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rates)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        rate = self.rates[index.row()]
        if role == DISPLAY:
            return (rate.query, "yes" if rate.should_trigger else "no",
                    f"{rate.triggers} of {rate.runs}", f"{rate.rate:.0%}",
                    "PASS" if rate.passed else "FAIL")[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole and index.column() == self.RESULT:
            return QBrush(PASSED if rate.passed else FAILED)
        if role == Qt.ItemDataRole.ToolTipRole:
            side = "at least" if rate.should_trigger else "below"
            return (f"{rate.query}\nPicked in {rate.triggers} of {rate.runs} runs; it passes at a "
                    f"rate {side} {rate.threshold:.0%}.")
        return None


class EvalResultsModel(_ResultsTable):
    """One row per outcome eval and run: its result with the skill, without it and on the
    baseline version, and the author's review note."""

    HEADERS = ("Eval", "Run", "With the skill", "Without the skill", "At the baseline",
               "Your note")
    WITH, WITHOUT, OLD, NOTE = 2, 3, 4, 5

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, int]] = []
        self.feedback: dict[str, str] = {}
        self._sides: dict[int, dict[tuple[str, int], EvalResult]] = {}
        self._labels = {self.WITH: "with the skill", self.WITHOUT: "without the skill",
                        self.OLD: "at the baseline"}

    def set_report(self, report: SkillReport | None) -> None:
        self.beginResetModel()
        empty: list[EvalResult] = []
        self._sides = {
            self.WITH: {(r.id, r.run): r for r in (report.evals if report else empty)},
            self.WITHOUT: {(r.id, r.run): r for r in (report.without_skill or [] if report else empty)},
            self.OLD: {(r.id, r.run): r for r in (report.old_skill or [] if report else empty)},
        }
        if report is not None and report.old_ref:
            self._labels[self.OLD] = f"at {report.old_ref}"
        self.feedback = dict(report.feedback) if report is not None else {}
        self.rows = list(dict.fromkeys(key for side in self._sides.values() for key in side))
        self.endResetModel()

    def set_note(self, eval_id: str, note: str) -> None:
        if note.strip():
            self.feedback[eval_id] = note.strip()
        else:
            self.feedback.pop(eval_id, None)
        for row, (case, _run) in enumerate(self.rows):
            if case == eval_id:
                index = self.index(row, self.NOTE)
                self.dataChanged.emit(index, index)

    def has_column(self, column: int) -> bool:
        """Whether a column has anything to show (the view hides those that do not)."""
        if column == self.NOTE:
            return bool(self.feedback)
        return column not in self._sides or bool(self._sides[column])

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == DISPLAY and section == self.OLD:
            return sentence(self._labels[self.OLD])
        return super().headerData(section, orientation, role)

    def result_at(self, index: Index) -> tuple[EvalResult, str] | None:
        """The result in a cell of the result columns, and which side it is."""
        if not index.isValid() or index.column() not in self._sides:
            return None
        found = self._sides[index.column()].get(self.rows[index.row()])
        return (found, self._labels[index.column()]) if found is not None else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        case, run = self.rows[index.row()]
        found = self.result_at(index)
        if role == DISPLAY:
            if index.column() == 0:
                return case
            if index.column() == 1:
                return run
            if index.column() == self.NOTE:
                return self.feedback.get(case, "")
            return result_text(found[0]) if found is not None else "not run"
        if role == Qt.ItemDataRole.BackgroundRole and found is not None:
            return QBrush(PASSED if found[0].passed else FAILED)
        if role == Qt.ItemDataRole.ToolTipRole:
            if found is not None:
                return verdicts_html(*found)
            return self.feedback.get(case) if index.column() == self.NOTE else None
        return None


class BenchmarkModel(_ResultsTable):
    """Each configuration's pass rate, seconds and tokens a run (mean ± spread), and how this
    version differs from it; the previous version from the history shows its means."""

    HEADERS = ("Configuration", "Runs", "Pass rate", "Seconds a run", "Tokens a run", "Change")
    TIPS = ("", "", "", "Mean ± spread over the runs", "Prompt and completion tokens, mean ± "
            "spread over the runs", "What this version changes over that configuration: pass "
            "rate in points, seconds and tokens a run")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.figures: list[Figures] = []
        self.previous: HistoryEntry | None = None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return self.TIPS[section] or None
        return super().headerData(section, orientation, role)

    def set_figures(self, figures: list[Figures], previous: HistoryEntry | None) -> None:
        self.beginResetModel()
        self.figures = figures
        self.previous = previous
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        if parent.isValid():
            return 0
        return len(self.figures) + (self.previous is not None and bool(self.figures))

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or role not in (DISPLAY, Qt.ItemDataRole.ToolTipRole):
            return None
        row = self.row(index.row())
        return row[index.column()]

    def row(self, number: int) -> tuple[str, str, str, str, str, str]:
        mine = self.figures[0]
        if number < len(self.figures):
            f = self.figures[number]
            change = "" if number == 0 else delta_text(
                mine.pass_rate - f.pass_rate, _minus(mine.seconds.mean, f.seconds.mean),
                _minus(mine.tokens.mean, f.tokens.mean))
            return (f.label, str(f.runs), percent(f.pass_rate), _spread(f.seconds.mean,
                    f.seconds.stdev, ".1f"), _spread(f.tokens.mean, f.tokens.stdev, ",.0f"), change)
        previous = self.previous
        assert previous is not None
        change = delta_text(_minus(mine.pass_rate, previous.pass_rate),
                            _minus(mine.seconds.mean, previous.seconds),
                            _minus(mine.tokens.mean, previous.tokens))
        return (f"previous version {previous.skill_hash[:8]} (history)", "",
                percent(previous.pass_rate), _spread(previous.seconds, None, ".1f"),
                _spread(previous.tokens, None, ",.0f"), change)


def delta_text(rate: float | None, seconds: float | None, tokens: float | None) -> str:
    parts = []
    if rate is not None:
        parts.append(f"{rate * 100:+.0f} pts")
    if seconds is not None:
        parts.append(f"{seconds:+.1f} s")
    if tokens is not None:
        parts.append(f"{tokens:+,.0f} tokens")
    return ", ".join(parts)


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _spread(mean: float | None, stdev: float | None, spec: str) -> str:
    if mean is None:
        return "n/a"
    return format(mean, spec) + (f" ± {format(stdev, spec)}" if stdev is not None else "")

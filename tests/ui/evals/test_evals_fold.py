"""The Evals view in the window's default layout at 1280x720 (the library and the Problems dock
open, the chat closed; issue 44): the eval files and a run's results are both in sight without
scrolling, the run options fold away until asked for, and after a restart the results table shows
the same run as the chart, the last one kept."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractItemView, QScrollArea
from pytestqt.qtbot import QtBot

from studio.evals import EvalResult, SkillReport, Verdict
from studio.ui.evals.panel import EvalsPanel
from tests.fakes.ollama import FakeOllama
from tests.ui.chat.chat_helpers import ChatWindowFactory
from tests.ui.evals.test_evals_layout import run_with_results, settle
from tests.ui.evals.test_evals_tab import TRIGGERS, open_panel, write_evals

EVALS = {"skill_name": "demo", "evals": [
    {"id": n, "prompt": f"Say hello number {n}", "expected_output": "a greeting",
     "expectations": [{"contains": "hello"}]} for n in range(1, 7)]}


def rows_in_sight(view: QAbstractItemView, panel: EvalsPanel) -> int:
    """The rows of `view` wholly shown: inside its viewport, and inside what the panel's scroll
    area shows of the view (a row below the fold is not in sight)."""
    area = panel.findChild(QScrollArea)
    assert area is not None
    port = area.viewport()
    sight = QRect(port.mapToGlobal(QPoint(0, 0)), port.size())
    inside = view.viewport()
    shown = 0
    for row in range(view.model().rowCount()):
        rect = view.visualRect(view.model().index(row, 0))
        if not view.isVisible() or rect.top() < 0 or rect.bottom() > inside.height():
            continue
        top = inside.mapToGlobal(QPoint(0, rect.top())).y()
        if sight.top() <= top and top + rect.height() - 1 <= sight.bottom():
            shown += 1
    return shown


def a_run(panel: EvalsPanel) -> SkillReport:
    report = SkillReport("demo", "0123456789abcdef", "tool-model")
    report.evals = [EvalResult(str(n), 1, (Verdict("contains: hello", n % 2 == 1, "contains",
                                                   "found" if n % 2 else "missing"),),
                               2, 1.5, "answered") for n in range(1, 7)]
    return report


def test_the_files_and_the_results_are_in_sight_at_1280x720(
    chat_window: ChatWindowFactory, chat_skills: Path, qtbot: QtBot
) -> None:
    write_evals(chat_skills, EVALS, TRIGGERS)
    window = chat_window()
    window.chat.dock.hide()
    window.resize(1280, 720)
    panel = open_panel(window, chat_skills)
    panel.results.show_report(a_run(panel))
    settle(qtbot, panel)
    qtbot.waitUntil(lambda: panel.width() >= panel.tab.width() - 10, timeout=5000)
    settle(qtbot, panel)
    assert window.problems_dock.isVisible() and window.library_dock.isVisible()
    area = panel.findChild(QScrollArea)
    assert area is not None and area.verticalScrollBar().maximum() == 0, "nothing below the fold"
    assert panel.options.isHidden(), "the run options fold away"
    assert rows_in_sight(panel.files.evals_view, panel) >= 2
    assert rows_in_sight(panel.results.evals_view, panel) >= 3
    # A long progress message stays on one line: the results stay where they were.
    panel.status.setText("demo: trigger 1/4: " + "how many kilometres is 26.2 miles? " * 6)
    settle(qtbot, panel)
    assert area.verticalScrollBar().maximum() == 0 and panel.status.text().endswith("miles? ")
    assert rows_in_sight(panel.results.evals_view, panel) >= 3
    panel.options_button.click()
    assert panel.options.isVisible()
    assert "Runs: 1" in panel.options_button.toolTip() or panel.options_button.isChecked()


def test_after_a_restart_the_table_shows_the_run_the_chart_ends_with(
    chat_window: ChatWindowFactory, chat_skills: Path, fake_ollama: FakeOllama, qtbot: QtBot
) -> None:
    write_evals(chat_skills)
    window = chat_window()
    panel = run_with_results(qtbot, window, chat_skills, fake_ollama)
    ran = panel.report
    assert ran is not None and panel.chart.shown == ran.skill_hash
    window.close_without_asking()

    panel = open_panel(chat_window(), chat_skills)
    shown = panel.results.report
    assert shown is not None, panel.results.summary.text()
    assert shown.skill_hash == ran.skill_hash == panel.chart.versions[-1].skill_hash
    assert panel.chart.shown == shown.skill_hash
    assert [r.passed for r in shown.evals] == [r.passed for r in ran.evals]
    assert panel.results.evals_model.rowCount() == panel.results.evals_model.rowCount() > 0
    assert "Run the evals" not in panel.results.summary.text()


"""The Evals tab of one skill: its outcome evals and trigger queries in tables (`editor`), runs
in the background with progress and Cancel, the
results with and without the skill side by side, the pass rate per version, and description
variants to apply.

What it needs from the window (the model, the catalog, the chat's last prompt, where history is
kept) comes in an `EvalServices`; it builds no model client of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from studio.agent.session import SessionFactory, SessionSettings
from studio.evals.cache import ResultCache, skill_hash
from studio.evals.history import EvalHistory, HistoryEntry
from studio.evals.improve import improve_description
from studio.evals.report import SkillReport
from studio.evals.runner import EvalError, EvalRunner
from studio.llm.errors import LLMError
from studio.skills.checks.evalfiles import EvalFileError, read_evals, read_triggers
from studio.skills.library.summary import SkillSummary
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.evals.chart import PassRateChart
from studio.ui.evals.editor import EvalFilesEditor
from studio.ui.evals.results import ResultsView
from studio.ui.evals.variants import VariantsView
from studio.ui.tasks import TaskSet


@dataclass
class EvalServices:
    """What an Evals tab asks the window.

    Attributes:
        sessions: the session factory (auto-approving when True, denying when False) and the
            settings of the model picked in the chat; or what the user must do first.
        catalog: the skill of an editor tab as saved, and the skills it is tried among.
        last_prompt: the chat's last prompt, if any.
        history: where each run's figures are kept.
        tasks: the window's background tasks, which runs join (closing the window cancels them).
        cache: where results are kept (None: never reused).
    """

    sessions: Callable[[bool], tuple[SessionFactory, SessionSettings] | str]
    catalog: Callable[[SkillEditorTab], tuple[SkillSummary, list[SkillSummary]]]
    last_prompt: Callable[[], str | None]
    history: EvalHistory
    tasks: TaskSet
    cache: ResultCache | None = None


class EvalsPanel(QWidget):
    """The Evals tab of one skill editor tab.

    Attributes:
        files: the tables of the eval files.
        report: the last run's results (None before the first run).
        task: the run under way, if any.
    """

    def __init__(self, tab: SkillEditorTab, services: EvalServices,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("evalsPanel")
        self.tab = tab
        self.services = services
        self.task: asyncio.Task[None] | None = None
        self.report: SkillReport | None = None
        self.files = EvalFilesEditor(tab, services.last_prompt)

        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Run the trigger queries and the evals on the model picked "
                                   "in the Chat pane")
        self.without_button = QPushButton("Run Without Skill")
        self.without_button.setToolTip("Run the evals with the skill and without it, side by "
                                       "side, to see what the skill adds")
        self.improve_button = QPushButton("Improve Description")
        self.improve_button.setToolTip("Have the model propose descriptions from the trigger "
                                       "queries that went wrong, and measure each")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.runs_box = QSpinBox()
        self.runs_box.setRange(1, 20)
        self.runs_box.setPrefix("Runs: ")
        self.runs_box.setAccessibleName("Runs of each query and eval")
        self.runs_box.setToolTip("How many times each query and eval runs: a small model's "
                                 "choices vary from run to run")
        self.approve_combo = QComboBox()
        self.approve_combo.addItem("Run asked commands", True)
        self.approve_combo.addItem("Deny asked commands", False)
        self.approve_combo.setToolTip("What the run answers when the policy asks about a "
                                      "command: run it in the sandbox, or deny it. Blocked "
                                      "commands stay blocked either way.")
        self.status = QLabel()
        self.status.setObjectName("evalStatus")
        self.status.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.hide()

        self.chart = PassRateChart()
        self.results = ResultsView(side=self.chart)
        self.variants = VariantsView()
        self.result_tabs = QTabWidget()
        self.result_tabs.setDocumentMode(True)
        self.result_tabs.addTab(self.results, "Results")
        self.result_tabs.addTab(self.variants, "Description Variants")

        buttons = QHBoxLayout()
        for button in (self.run_button, self.without_button, self.improve_button,
                       self.cancel_button):
            buttons.addWidget(button)
        buttons.addWidget(self.progress)
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.runs_box)
        buttons.addWidget(self.approve_combo)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.files)
        split.addWidget(self.result_tabs)
        split.setSizes([200, 500])
        split.setChildrenCollapsible(False)
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(4, 4, 4, 4)
        body_layout.addLayout(buttons)
        body_layout.addWidget(split, 1)
        # Scrolled rather than squeezed: the editor tab, and so the window, must not have to be
        # as large as the tables, results and chart together.
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

        self.run_button.clicked.connect(self._on_run_button_clicked)
        self.without_button.clicked.connect(self._on_without_button_clicked)
        self.improve_button.clicked.connect(self._on_improve_button_clicked)
        self.cancel_button.clicked.connect(self.cancel)
        self.variants.apply_requested.connect(self.apply_description)
        self.files.message_shown.connect(self._say)
        self.reload()

    # -- the files --------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the eval files again; a skill in an archive is shown, not run."""
        self.files.reload()
        self.show_history()
        read_only = self.tab.read_only
        if read_only:
            self._say("This skill is read-only (in an archive): copy it into a folder of "
                      "skills to write and run its evals.")
        for button in (self.run_button, self.without_button, self.improve_button):
            button.setEnabled(not read_only)

    def reload_if_changed(self) -> None:
        if self.files.changed_on_disk():
            self.reload()

    # -- runs -------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def _say(self, text: str) -> None:
        self.status.setText(text)

    def _ready(self) -> tuple[EvalRunner, SkillSummary, list[SkillSummary], SkillReport] | None:
        """What a run needs, or None after saying what is missing."""
        if self.busy:
            return None
        if self.tab.dirty:
            self._say("Save the skill first (Ctrl+S): the evals run the files on disk.")
            return None
        found = self.services.sessions(bool(self.approve_combo.currentData()))
        if isinstance(found, str):
            self._say(found)
            return None
        factory, settings = found
        target, catalog = self.services.catalog(self.tab)
        runner = EvalRunner(factory, settings, cache=self.services.cache, progress=self._on_progress)
        report = SkillReport(target.display_name, skill_hash(self.tab.directory), runner.model_id)
        return runner, target, catalog, report

    def run(self, without: bool = False) -> asyncio.Task[None] | None:
        """Run the trigger queries and the evals (and the evals without the skill)."""
        ready = self._ready()
        if ready is None:
            return None
        runner, target, catalog, report = ready
        try:
            triggers = read_triggers(self.tab.directory)
            evals = read_evals(self.tab.directory)
        except EvalFileError as exc:
            self._say(f"Fix the eval files first: {exc}")
            return None
        if not triggers and not (evals and evals.evals):
            self._say("Add a trigger query or an eval first.")
            return None
        cases = evals.evals if evals is not None else ()
        runs = self.runs_box.value()
        total = (len(triggers or ()) + len(cases) * (2 if without else 1)) * runs

        async def work() -> None:
            if triggers:
                await runner.triggers(target, catalog, triggers, runs, report)
            if cases:
                await runner.outcomes(target, [target], cases, runs, report, report.evals, "with")
                if without:
                    report.without_skill = []
                    await runner.outcomes(target, [], cases, runs, report, report.without_skill,
                                          "without")

        return self._start(work(), report, total)

    def improve(self) -> asyncio.Task[None] | None:
        """Propose description variants from the trigger failures and measure each."""
        ready = self._ready()
        if ready is None:
            return None
        runner, target, catalog, report = ready
        try:
            queries = read_triggers(self.tab.directory)
        except EvalFileError as exc:
            self._say(f"Fix the trigger queries first: {exc}")
            return None
        if not queries or len({q.should_trigger for q in queries}) < 2:
            self._say("Add trigger queries that should and should not pick the skill first.")
            return None

        async def work() -> None:
            improvement = await improve_description(runner, target, catalog, queries, report)
            self.variants.show_improvement(improvement)
            self.result_tabs.setCurrentWidget(self.variants)

        return self._start(work(), report, 0, history=False)

    def _start(self, work: Coroutine[Any, Any, None], report: SkillReport, total: int, *,
               history: bool = True) -> asyncio.Task[None]:
        self.report = report
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        self.progress.show()
        self._set_busy(True)
        self._say("Starting…")
        self.task = self.services.tasks.spawn(self._run(work, report, history))
        return self.task

    async def _run(self, work: Coroutine[Any, Any, None], report: SkillReport,
                   history: bool) -> None:
        try:
            await work
        except (EvalError, LLMError) as exc:
            report.problems.append(exc.user_message if isinstance(exc, LLMError) else str(exc))
        except asyncio.CancelledError:
            report.cancelled = True
            # The tab may be gone: closing it is what cancelled the run.
            if isValid(self):
                self._finish(report, history=False)
            raise
        self._finish(report, history)

    def _finish(self, report: SkillReport, history: bool) -> None:
        self._set_busy(False)
        self.progress.hide()
        self.results.show_report(report)
        if report.problems:
            self._say("The run failed: " + "; ".join(report.problems))
        elif report.cancelled:
            self._say("Stopped; what finished is shown and stays cached.")
        else:
            self._say("Done.")
        if history and not report.problems and (report.trigger is not None or report.evals):
            try:
                self.services.history.add(HistoryEntry.of(self.tab.directory, report))
            except OSError as exc:
                self._say(f"Done, but the history could not be saved: {exc.strerror or exc}.")
            self.show_history()

    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def _set_busy(self, busy: bool) -> None:
        for button in (self.run_button, self.without_button, self.improve_button):
            button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)

    def _on_progress(self, message: str) -> None:
        report = self.report
        if report is not None:
            done = (len(report.trigger.queries) if report.trigger is not None else 0) + len(
                report.evals) + len(report.without_skill or [])
            self.progress.setValue(min(done, self.progress.maximum()))
        self.status.setText(message)

    def show_history(self) -> None:
        self.chart.set_versions(self.services.history.versions(self.tab.directory))

    # -- the description --------------------------------------------------------------------------

    def apply_description(self, description: str) -> bool:
        """Put a variant in the skill's frontmatter, as if typed in the form (undoable there)."""
        if not self.tab.set_field("description", description):
            self._say("The description could not be set: the frontmatter does not parse. Fix "
                      "it in the SKILL.md view first.")
            return False
        self._say("Description applied in the editor; save to keep it (Ctrl+Z there undoes it).")
        return True

    def _on_run_button_clicked(self) -> None:
        self.run()

    def _on_without_button_clicked(self) -> None:
        self.run(without=True)

    def _on_improve_button_clicked(self) -> None:
        self.improve()


"""The Evals tab of one skill: its outcome evals and trigger queries in tables (`editor`), runs
in the background with progress and Cancel (each run what `studio eval` makes of the same choices,
`studio.evals.plan`), the results with and without the skill and against a baseline side by side,
the pass rate per version, trigger queries the model writes for review, saved iterations, and
description variants to apply.

What it needs from the window (the model, the catalog, the chat's last prompt, where history is
kept) comes in an `EvalServices`; it builds no model client of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from studio.evals import (
    EvalError,
    HistoryEntry,
    IterationError,
    Runner,
    ServerPool,
    SkillReport,
    add_queries,
    generate_triggers,
    improve_description,
    read_iteration,
    report_of,
    run_skill,
    save_iteration,
    skill_hash,
    workspace_for,
)
from studio.llm import LLMError
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.evals.chart import PassRateChart
from studio.ui.evals.editor import EvalFilesEditor
from studio.ui.evals.generated import GeneratedQueries
from studio.ui.evals.header import EvalsHeader
from studio.ui.evals.options import HISTORY, RunOptions
from studio.ui.evals.results import ResultsView
from studio.ui.evals.services import EvalServices
from studio.ui.evals.variants import VariantsView


class EvalsPanel(QWidget):
    """The Evals tab of one skill editor tab.

    Attributes:
        files: the tables of the eval files.
        options: the choices of the next run.
        report: the last run's results, or the iteration opened (None before either).
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
        self.options = RunOptions()

        self.header = EvalsHeader(self.options)
        header = self.header
        self.run_button, self.without_button = header.run_button, header.without_button
        self.improve_button, self.generate_button = header.improve_button, header.generate_button
        self.cancel_button, self.iterations_button = header.cancel_button, header.iterations_button
        self.save_iteration_action = header.save_iteration_action
        self.options_button, self.status, self.progress = (header.options_button, header.status,
                                                           header.progress)

        self.chart = PassRateChart()
        self.results = ResultsView(tab.tab_layout, self._notes_folder, side=self.chart)
        self.variants = VariantsView()
        self.generated = GeneratedQueries()
        self.result_tabs = QTabWidget()
        self.result_tabs.setDocumentMode(True)
        self.result_tabs.addTab(self.results, "Results")
        self.result_tabs.addTab(self.variants, "Description Variants")
        self.result_tabs.addTab(self.generated, "Generated Queries")

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.files)
        split.addWidget(self.result_tabs)
        split.setChildrenCollapsible(False)
        # The results get twice the files' height: after a run they are what is read.
        tab.tab_layout.follow("evals", split, [150, 300])
        self.split = split
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(4, 4, 4, 4)
        body_layout.addWidget(header)
        body_layout.addWidget(self.options)
        body_layout.addWidget(split, 1)
        # Scrolled rather than squeezed below its least size: the editor tab, and so the window,
        # need not be as large as the tables, results and chart together. At the sizes people
        # have, it fits (tests/ui/evals/test_evals_layout.py).
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
        self.generate_button.clicked.connect(self._on_generate_button_clicked)
        self.cancel_button.clicked.connect(self.cancel)
        header.save_iteration_action.triggered.connect(self.save_iteration)
        header.open_iteration_action.triggered.connect(self._on_open_iteration_triggered)
        self.variants.apply_requested.connect(self.apply_description)
        self.generated.add_requested.connect(self.add_generated)
        self.files.message_shown.connect(self._say)
        self.reload()

    def _notes_folder(self) -> Path | None:
        return None if self.tab.read_only else self.tab.directory

    @property
    def _actions(self) -> tuple[QToolButton, ...]:
        return (self.run_button, self.without_button, self.improve_button, self.generate_button)

    # -- the files --------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the eval files again; a skill in an archive is shown, not run."""
        self.files.reload()
        self.show_history()
        read_only = self.tab.read_only
        if read_only:
            self._say("This skill is read-only (in an archive): copy it into a folder of "
                      "skills to write and run its evals.")
        for button in self._actions:
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

    def _ready(self) -> tuple[Runner, SkillSummary, list[SkillSummary], SkillReport] | None:
        """What a run needs, or None after saying what is missing."""
        if self.busy:
            return None
        if self.tab.dirty:
            self._say("Save the skill first (Ctrl+S): the evals run the files on disk.")
            return None
        runner = self.services.runner(self.options.auto_approve, self._on_progress)
        if isinstance(runner, str):
            self._say(runner)
            return None
        target, catalog = self.services.catalog(self.tab)
        report = SkillReport(target.display_name, skill_hash(self.tab.directory), runner.model_id)
        return runner, target, catalog, report

    def run(self, without: bool = False) -> asyncio.Task[None] | None:
        """Run the trigger queries and the evals as the options say (and the evals without the
        skill), as `studio eval` would."""
        ready = self._ready()
        if ready is None:
            return None
        runner, target, catalog, report = ready
        try:
            triggers = evalfiles.read_triggers(self.tab.directory)
            evals = evalfiles.read_evals(self.tab.directory)
        except evalfiles.EvalFileError as exc:
            self._say(f"Fix the eval files first: {exc}")
            return None
        if not triggers and not (evals and evals.evals):
            self._say("Add a trigger query or an eval first.")
            return None
        plan = self.options.plan(without)
        cases = len(evals.evals) if evals is not None else 0
        sides = 1 + without + bool(plan.baseline)
        total = (len(triggers or ()) + cases * sides) * plan.runs

        async def work() -> None:
            failed = await run_skill(runner, plan, report, target, catalog)
            if failed:
                raise EvalError(failed)

        return self._start(work(), report, total)

    def improve(self) -> asyncio.Task[None] | None:
        """Propose description variants from the trigger failures and measure each."""
        ready = self._ready()
        if ready is None:
            return None
        runner, target, catalog, report = ready
        try:
            queries = evalfiles.read_triggers(self.tab.directory)
        except evalfiles.EvalFileError as exc:
            self._say(f"Fix the trigger queries first: {exc}")
            return None
        if not queries or len({q.should_trigger for q in queries}) < 2:
            self._say("Add trigger queries that should and should not pick the skill first.")
            return None

        async def work() -> None:
            # The proposer talks to one server: the loop's rounds depend on each other.
            single = runner.runners[0] if isinstance(runner, ServerPool) else runner
            improvement = await improve_description(single, target, catalog, queries, report)
            self.variants.show_improvement(improvement)
            self.result_tabs.setCurrentWidget(self.variants)

        return self._start(work(), report, 0, history=False)

    def _start(self, work: Coroutine[Any, Any, None], report: SkillReport, total: int, *,
               history: bool = True, shown: bool = True) -> asyncio.Task[None]:
        """`shown`: the report replaces the results shown (not so for queries written)."""
        if shown:
            self.report = report
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        self.progress.show()
        self._set_busy(True)
        self._say("Starting…")
        self.task = self.services.tasks.spawn(self._run(work, report, history, shown))
        return self.task

    async def _run(self, work: Coroutine[Any, Any, None], report: SkillReport, history: bool,
                   shown: bool) -> None:
        try:
            await work
        except (EvalError, LLMError) as exc:
            reason = exc.user_message if isinstance(exc, LLMError) else str(exc)
            if reason not in report.problems:
                report.problems.append(reason)
        except asyncio.CancelledError:
            report.cancelled = True
            # The tab may be gone: closing it is what cancelled the run.
            if isValid(self):
                self._finish(report, False, shown)
            raise
        self._finish(report, history, shown)

    def _finish(self, report: SkillReport, history: bool, shown: bool) -> None:
        self._set_busy(False)
        self.progress.hide()
        if shown:
            previous = (self.services.history.previous(self.tab.directory, report.skill_hash)
                        if self.options.baseline == HISTORY else None)
            self._show_report(report, previous)
        if report.problems:
            self._say("The run failed: " + "; ".join(report.problems))
        elif report.cancelled:
            self._say("Stopped; what finished is shown and stays cached.")
        else:
            self._say("Done.")
        if history and not report.problems and (report.trigger is not None or report.evals):
            try:
                self.services.history.add(HistoryEntry.of(self.tab.directory, report))
                if shown:
                    self.services.history.keep_last_run(self.tab.directory, report)
            except OSError as exc:
                self._say(f"Done, but the history could not be saved: {exc.strerror or exc}.")
            self.show_history()

    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def _set_busy(self, busy: bool) -> None:
        for button in self._actions:
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
        """The chart of each version's figures; before any run is shown, the table shows the
        last run kept (the one the chart ends with), so the two agree after a restart."""
        self.chart.set_versions(self.services.history.versions(self.tab.directory))
        if self.report is None and (last := self.services.history.last_run(self.tab.directory)):
            self.report = last
            self._show_report(last)

    def _show_report(self, report: SkillReport, previous: HistoryEntry | None = None) -> None:
        self.results.show_report(report, previous)
        self.chart.set_baseline(*self.results.baseline_for_chart())
        self.chart.set_shown(report.skill_hash)

    # -- written queries and iterations -----------------------------------------------------------

    def generate(self, count: int = 20) -> asyncio.Task[None] | None:
        """Have the model write trigger queries, shown for review in Generated Queries."""
        if self.busy:
            return None
        found = self.services.sessions(False)
        if isinstance(found, str):
            self._say(found)
            return None
        factory, settings = found
        target, catalog = self.services.catalog(self.tab)
        try:
            existing = list(evalfiles.read_triggers(self.tab.directory) or ())
        except evalfiles.EvalFileError as exc:
            self._say(f"Fix the trigger queries first: {exc}")
            return None
        report = SkillReport(target.display_name, "", settings.model)

        async def work() -> None:
            client, model = await factory.server.open(settings.model)
            written = await generate_triggers(client, model, target, catalog, count, existing,
                                              dict(settings.options))
            self.generated.show_queries(written)
            self.result_tabs.setCurrentWidget(self.generated)
            if not written:
                raise EvalError("the model wrote no query that could be read; try again, or a "
                                "larger model")

        return self._start(work(), report, 0, history=False, shown=False)

    def add_generated(self, queries: list[evalfiles.TriggerQuery]) -> None:
        """Add the queries the author kept to evals/triggers.json."""
        if not queries:
            self._say("No query is checked to keep.")
            return
        try:
            added = add_queries(self.tab.directory, queries)
        except OSError as exc:
            self._say(f"The queries were not added: {exc}. Fix evals/triggers.json first.")
            return
        self.generated.clear()
        self.files.reload()
        self.files.setCurrentIndex(1)
        self._say(f"{added} queries added to evals/triggers.json"
                  + (f" ({len(queries) - added} were there already)." if added < len(queries)
                     else "."))

    def save_iteration(self) -> Path | None:
        """Write the last run's evals as the workspace's next iteration-N/."""
        report = self.report
        if report is None or not report.evals or not report.skill_hash:
            self._say("Run the evals first: an iteration holds a run's outcome evals.")
            return None
        target, _catalog = self.services.catalog(self.tab)
        try:
            folder = save_iteration(report, target)
        except OSError as exc:
            self._say(f"The iteration was not saved: {exc.strerror or exc}.")
            return None
        self._say(f"Saved as {folder}; skill-creator's viewer opens it too.")
        return folder

    def _on_open_iteration_triggered(self) -> None:
        workspace = workspace_for(self.tab.directory)
        dialog = QFileDialog(self, "Open an Iteration",
                             str(workspace if workspace.is_dir() else self.tab.directory.parent))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        dialog.fileSelected.connect(lambda folder: self.open_iteration(Path(folder)))
        dialog.open()

    def open_iteration(self, folder: Path) -> bool:
        """Show a saved iteration (the studio's or skill-creator's) in the results."""
        try:
            iteration = read_iteration(folder)
        except IterationError as exc:
            self._say(f"That folder is not an iteration: {exc}. Pick an iteration-N folder.")
            return False
        self.report = report_of(iteration, self.tab.title)
        self._show_report(self.report)
        self.result_tabs.setCurrentWidget(self.results)
        self._say(f"Showing {folder} (saved results; Run measures the skill again).")
        return True

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

    def _on_generate_button_clicked(self) -> None:
        self.generate()


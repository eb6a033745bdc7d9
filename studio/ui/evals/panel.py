"""The Evals tab of one skill: its outcome evals and trigger queries in tables (saved as they are
edited, undoable, checked as they change), runs in the background with progress and Cancel, the
results with and without the skill side by side, the pass rate per version, and description
variants to apply.

What it needs from the window (the model, the catalog, the chat's last prompt, where history is
kept) comes in an `EvalServices`; it builds no model client of its own.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from studio.agent.session import SessionFactory, SessionSettings
from studio.evals.cache import ResultCache, skill_hash
from studio.evals.editing import EVAL_COLUMNS, EditableFile, EvalsFile, TriggersFile
from studio.evals.files import EvalFileError, read_evals, read_triggers
from studio.evals.history import EvalHistory, HistoryEntry
from studio.evals.improve import improve_description
from studio.evals.report import SkillReport
from studio.evals.runner import EvalError, EvalRunner
from studio.llm.errors import LLMError
from studio.skills.evalrules import evals_problems, triggers_problems
from studio.skills.model import Diagnostic
from studio.skills.summary import SkillSummary
from studio.ui.evals.chart import PassRateChart
from studio.ui.evals.results import ResultsView
from studio.ui.evals.tables import Change, EvalsTableModel, EvalTable, TriggersTableModel
from studio.ui.evals.variants import VariantsView
from studio.ui.tasks import TaskSet
from studio.ui.widgets.editor_tab import SkillEditorTab

_ROW = re.compile(r"(?:^|: )(?:evals)?\[(\d+)\]")


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


class FileEdit(QUndoCommand):
    """One edit of an eval file, as the data before and after it; each step saves the file."""

    def __init__(self, panel: EvalsPanel, file: EditableFile, before: Any, after: Any,
                 text: str, *, rows_changed: bool) -> None:
        super().__init__(text)
        self._panel = panel
        self._file = file
        self._before = before
        self._after = after
        self._first = True
        self._rows_changed = rows_changed

    def redo(self) -> None:
        if self._first:
            # The edit itself is already in the data (a cell's editor may still be open on it).
            self._first = False
            self._panel.file_changed(self._file, reset=self._rows_changed)
            return
        self._file.restore(self._after)
        self._panel.file_changed(self._file, reset=True)

    def undo(self) -> None:
        self._file.restore(self._before)
        self._panel.file_changed(self._file, reset=True)


class EvalsPanel(QWidget):
    """The Evals tab of one skill editor tab.

    Attributes:
        evals, triggers: the eval files as edited.
        undo_stack: the tables' edits.
        report: the last run's results (None before the first run).
        task: the run under way, if any.

    Signals:
        run_finished: (SkillReport) a run ended, finished or stopped.
        message_shown: (str) something for the user (also shown in the tab's status line).
    """

    run_finished = Signal(object)
    message_shown = Signal(str)

    def __init__(self, tab: SkillEditorTab, services: EvalServices,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("evalsPanel")
        self.tab = tab
        self.services = services
        self.task: asyncio.Task[None] | None = None
        self.report: SkillReport | None = None
        self.undo_stack = QUndoStack(self)
        directory = tab.directory
        self.evals = EvalsFile(directory, tab.doc.skill.name or directory.name)
        self.triggers = TriggersFile(directory)
        self.evals_model = EvalsTableModel(self.evals, self._edit_evals, self)
        self.triggers_model = TriggersTableModel(self.triggers, self._edit_triggers, self)

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

        self.evals_view = EvalTable((1, 2, 3))
        self.evals_view.setModel(self.evals_model)
        self.evals_view.horizontalHeader().setStretchLastSection(True)
        self.evals_view.setColumnWidth(0, 50)
        self.evals_view.setColumnWidth(1, 260)
        self.evals_view.setColumnWidth(2, 200)
        self.triggers_view = EvalTable()
        self.triggers_view.setModel(self.triggers_model)
        self.triggers_view.horizontalHeader().setStretchLastSection(False)
        self.triggers_view.setColumnWidth(1, 110)
        self.triggers_view.horizontalHeader().setSectionResizeMode(
            0, self.triggers_view.horizontalHeader().ResizeMode.Stretch)
        self.editing_buttons: list[QToolButton] = []
        self.evals_problems = self._problems_label()
        self.triggers_problems = self._problems_label()

        self.edit_tabs = QTabWidget()
        self.edit_tabs.setDocumentMode(True)
        self.edit_tabs.addTab(self._page(self.evals_view, self.evals_problems, "eval"),
                              "Outcome Evals")
        self.edit_tabs.addTab(self._page(self.triggers_view, self.triggers_problems, "query"),
                              "Trigger Queries")

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
        split.addWidget(self.edit_tabs)
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
        for view in (self.evals_view, self.triggers_view):
            view.undo_requested.connect(self.undo_stack.undo)
            view.redo_requested.connect(self.undo_stack.redo)
            view.delegate.closeEditor.connect(self._validate)
        self.evals_view.delegate.draft_changed.connect(self._on_evals_draft_changed)
        self.triggers_view.delegate.draft_changed.connect(self._on_triggers_draft_changed)
        self.reload()

    # -- building ---------------------------------------------------------------------------------

    def _problems_label(self) -> QLabel:
        label = QLabel()
        label.setObjectName("evalProblems")
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.hide()
        return label

    def _page(self, view: EvalTable, problems: QLabel, what: str) -> QWidget:
        page = QWidget()
        add = QToolButton()
        add.setText(f"Add {what.title()}")
        add.setObjectName(f"add_{what}")
        from_chat = QToolButton()
        from_chat.setText("Add from Chat")
        from_chat.setObjectName(f"add_{what}_from_chat")
        from_chat.setToolTip(f"Add a{'n' if what == 'eval' else ''} {what} with the chat's last prompt")
        remove = QToolButton()
        remove.setText("Remove")
        remove.setObjectName(f"remove_{what}")
        undo = QToolButton()
        undo.setText("Undo")
        redo = QToolButton()
        redo.setText("Redo")
        self.undo_stack.canUndoChanged.connect(undo.setEnabled)
        self.undo_stack.canRedoChanged.connect(redo.setEnabled)
        undo.setEnabled(False)
        redo.setEnabled(False)
        undo.clicked.connect(self.undo_stack.undo)
        redo.clicked.connect(self.undo_stack.redo)
        is_eval = what == "eval"
        add.clicked.connect(lambda: self.add_eval() if is_eval else self.add_query())
        from_chat.clicked.connect(lambda: self.add_from_chat(is_eval))
        remove.clicked.connect(lambda: self.remove_selected(view))
        row = QHBoxLayout()
        for button in (add, from_chat, remove, undo, redo):
            row.addWidget(button)
        row.addStretch(1)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.addLayout(row)
        layout.addWidget(view, 1)
        layout.addWidget(problems)
        self.editing_buttons += [add, from_chat, remove]
        return page

    # -- the files --------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the eval files again (another program changed them): the undo history goes,
        since it was about the old text."""
        for file in (self.evals, self.triggers):
            # The skill may have been renamed, and its folder with it.
            file.path = self.tab.directory / file.relative
            file.load()
        self.undo_stack.clear()
        read_only = self.tab.read_only
        for model in (self.evals_model, self.triggers_model):
            model.read_only = read_only or bool(model.file.problem)
            model.refresh()
        for tool in self.editing_buttons:
            tool.setEnabled(not read_only)
        self._validate()
        self.show_history()
        if read_only:
            self._say("This skill is read-only (in an archive): copy it into a folder of "
                      "skills to write and run its evals.")
        for button in (self.run_button, self.without_button, self.improve_button):
            button.setEnabled(not read_only)

    def reload_if_changed(self) -> None:
        if self.evals.changed_on_disk() or self.triggers.changed_on_disk():
            self.reload()

    def _edit_evals(self, text: str, change: Change) -> None:
        self._edit(self.evals, text, change)

    def _edit_triggers(self, text: str, change: Change) -> None:
        self._edit(self.triggers, text, change)

    def _edit(self, file: EditableFile, text: str, change: Change) -> None:
        if file.problem or self.tab.read_only:
            return
        before = file.snapshot()
        rows = len(file.rows())
        if not change():
            return
        self.undo_stack.push(FileEdit(self, file, before, file.snapshot(), text,
                                      rows_changed=len(file.rows()) != rows))

    def _model_of(self, file: EditableFile) -> EvalsTableModel | TriggersTableModel:
        return self.evals_model if file is self.evals else self.triggers_model

    def file_changed(self, file: EditableFile, *, reset: bool) -> None:
        """The data of `file` changed (an edit, undo or redo): show it, save it and check it.
        `reset`: rows came or went, so the table is shown afresh."""
        model = self._model_of(file)
        if reset:
            model.refresh()
        elif model.rowCount():
            model.dataChanged.emit(model.index(0, 0),
                                   model.index(model.rowCount() - 1, model.columnCount() - 1))
        try:
            file.save()
        except OSError as exc:
            self._say(f"{file.relative} could not be saved: {exc.strerror or exc}. The table "
                      "keeps your edits; fix the folder's permissions and edit again.")
        self._validate()
        # The skill's own problems include its eval files': the Problems panel follows.
        self.tab.doc.validate_now()

    def _check_draft(self, file: EditableFile, change: Change) -> None:
        """Check the file as it would be with what is being typed, without keeping or saving it."""
        if file.problem:
            return
        before = file.snapshot()
        try:
            if change():
                self._validate()
        finally:
            file.restore(before)

    def _on_evals_draft_changed(self, row: int, column: int, text: str) -> None:
        self._check_draft(self.evals,
                          lambda: self.evals.set_cell(row, EVAL_COLUMNS[column], text))

    def _on_triggers_draft_changed(self, row: int, column: int, text: str) -> None:
        if column == 0:
            self._check_draft(self.triggers, lambda: self.triggers.set_query(row, text))

    def _validate(self) -> None:
        for file, label, problems in (
                (self.evals, self.evals_problems,
                 list(evals_problems(self.evals.data, self.tab.doc.skill.name, self.tab.directory))),
                (self.triggers, self.triggers_problems, list(triggers_problems(self.triggers.data)))):
            if file.problem:
                problems = []
            model = self._model_of(file)
            model.set_bad_rows({int(m.group(1)) for d in problems
                                if (m := _ROW.search(d.message)) is not None})
            lines = [file.problem] if file.problem else [_line(d) for d in problems]
            label.setText("\n".join(lines))
            label.setVisible(bool(lines))
        self.edit_tabs.setTabText(0, f"Outcome Evals ({len(self.evals.rows())})")
        self.edit_tabs.setTabText(1, f"Trigger Queries ({len(self.triggers.rows())})")

    def add_eval(self, prompt: str = "") -> None:
        self._edit(self.evals, "Add eval", lambda: self.evals.add_row(prompt) >= 0)
        self.edit_tabs.setCurrentIndex(0)
        self._edit_last(self.evals_view, 1)

    def add_query(self, query: str = "") -> None:
        self._edit(self.triggers, "Add query", lambda: self.triggers.add_row(query) >= 0)
        self.edit_tabs.setCurrentIndex(1)
        self._edit_last(self.triggers_view, 0)

    def _edit_last(self, view: EvalTable, column: int) -> None:
        model = view.model()
        index = model.index(model.rowCount() - 1, column)
        view.setCurrentIndex(index)
        view.scrollTo(index)

    def add_from_chat(self, as_eval: bool) -> bool:
        """Add the chat's last prompt as an eval or a trigger query (that should trigger)."""
        prompt = self.services.last_prompt()
        if not prompt:
            self._say("The chat has no prompt yet: ask something in the Chat pane, then add it.")
            return False
        if as_eval:
            self.add_eval(prompt)
        else:
            self.add_query(prompt)
        return True

    def remove_selected(self, view: EvalTable) -> None:
        rows = sorted({index.row() for index in view.selectionModel().selectedRows()}, reverse=True)
        file = self.evals if view is self.evals_view else self.triggers
        if not rows:
            return

        def remove() -> bool:
            for row in rows:
                file.remove_row(row)
            return True

        self._edit(file, f"Remove {len(rows)} row{'s' if len(rows) > 1 else ''}", remove)

    # -- runs -------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.message_shown.emit(text)

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
        self.run_finished.emit(report)

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


def _line(diagnostic: Diagnostic) -> str:
    return f"{diagnostic.code}: {diagnostic.message}"

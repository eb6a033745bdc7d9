"""Routing conflicts across the library (Tools ▸ Routing Conflicts): skills a model will confuse,
as `studio eval --conflicts` finds them (`studio.evals.conflicts`). Descriptions that overlap are
found in a worker thread of the window's own (embedding thousands of descriptions takes a while);
trigger queries of one skill that load another are asked of the model picked in the chat. Each
conflict names both skills; a click on either opens it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QCloseEvent, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.agent import SessionFactory, SessionSettings
from studio.evals import (
    CrossTrigger,
    EvalError,
    EvalRunner,
    Overlap,
    SkillReport,
    cross_triggers,
    description_overlaps,
    local_embedder,
    trigger_sets,
)
from studio.llm import LLMError
from studio.skills import SkillSummary
from studio.ui.rows import RowsModel
from studio.ui.tasks import TaskSet

Index = QModelIndex | QPersistentModelIndex
Conflict = Overlap | CrossTrigger
Sessions = Callable[[bool], tuple[SessionFactory, SessionSettings] | str]


class ConflictsModel(RowsModel):
    """One row per conflict: its kind, the two skills (shown as links), and why."""

    COLUMNS = ("Kind", "Skill", "Confused with", "Why")
    FIRST, SECOND = 1, 2

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._by_name: dict[str, SkillSummary] = {}

    def set_conflicts(self, rows: list[Conflict], library: list[SkillSummary]) -> None:
        self._by_name = {s.display_name: s for s in library}
        self.set_rows(rows)

    def skill_at(self, index: Index) -> SkillSummary | None:
        """The skill a cell of the two skill columns names (None elsewhere)."""
        if not index.isValid() or index.column() not in (self.FIRST, self.SECOND):
            return None
        row = self._rows[index.row()]
        if isinstance(row, Overlap):
            return row.first if index.column() == self.FIRST else row.second
        return row.owner if index.column() == self.FIRST else self._by_name.get(row.loaded)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        skill = self.skill_at(index)
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return "descriptions overlap" if isinstance(row, Overlap) else "query loads another"
            if index.column() == self.SECOND and isinstance(row, CrossTrigger) and skill is None:
                return row.loaded
            if skill is not None:
                return skill.display_name
            return why(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{skill.directory}\nClick to open it." if skill is not None else why(row))
        if skill is not None and role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setUnderline(True)
            return font
        if skill is not None and role == Qt.ItemDataRole.ForegroundRole:
            return QPalette().color(QPalette.ColorRole.Link)
        return None


def why(row: Conflict) -> str:
    if isinstance(row, Overlap):
        text = f"shared terms {', '.join(row.shared) or '-'}; word overlap {row.lexical:.2f}"
        return text + (f"; meaning {row.semantic:.2f}" if row.semantic is not None else "")
    return f"its query {row.query!r} loaded {row.loaded}"


class ConflictsWindow(QWidget):
    """Attributes:
        model: the conflicts found.
        task: the search under way, if any.

    Signals:
        skill_open_requested: (Path) a skill of a conflict was clicked.
    """

    skill_open_requested = Signal(Path)

    def __init__(self, library: Callable[[], list[SkillSummary]], sessions: Sessions,
                 tasks: TaskSet, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Routing Conflicts")
        self.setObjectName("conflictsWindow")
        self._library = library
        self._sessions = sessions
        self._tasks = tasks
        self._worker: ThreadPoolExecutor | None = None
        self.task: asyncio.Task[None] | None = None
        self.model = ConflictsModel(self)
        intro = QLabel("Skills a model will confuse: descriptions that say much the same, and "
                       "trigger queries of one skill that the model answers by loading another. "
                       "Click a skill to open it.")
        intro.setWordWrap(True)
        self.describe_button = QPushButton("Compare Descriptions")
        self.describe_button.setToolTip("Compare every loadable skill's description with the "
                                        "others (rare words, and meaning when the local "
                                        "embedding model is installed)")
        self.ask_button = QPushButton("Ask the Model Too")
        self.ask_button.setToolTip("Also ask each skill's trigger queries of the model picked in "
                                   "the Chat pane, with the whole library in its catalog")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName("Conflicting pairs of skills")
        self.view.verticalHeader().hide()
        self.view.setWordWrap(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.view.horizontalHeader()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        row = QHBoxLayout()
        row.addWidget(self.describe_button)
        row.addWidget(self.ask_button)
        row.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.view, 1)
        self.resize(900, 500)
        self.describe_button.clicked.connect(self._on_describe_button_clicked)
        self.ask_button.clicked.connect(self._on_ask_button_clicked)
        self.view.clicked.connect(self._on_view_clicked)

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def search(self, ask_model: bool = False) -> asyncio.Task[None] | None:
        """Look for conflicts (and ask the model, with `ask_model`) in the background."""
        if self.busy:
            return None
        library = [s for s in self._library() if s.loadable and s.name]
        session = None
        if ask_model:
            found = self._sessions(False)
            if isinstance(found, str):
                self.status.setText(found)
                return None
            session = found
        for button in (self.describe_button, self.ask_button):
            button.setEnabled(False)
        self.status.setText(f"Comparing {len(library):,} skills…")
        self.task = self._tasks.spawn(self._find(library, session))
        return self.task

    async def _find(self, library: list[SkillSummary],
                    session: tuple[SessionFactory, SessionSettings] | None) -> None:
        notes: list[str] = []
        try:
            if self._worker is None:
                self._worker = ThreadPoolExecutor(1, thread_name_prefix="routing-conflicts")
            overlaps, why_words = await asyncio.get_running_loop().run_in_executor(
                self._worker, _overlaps, library)
            if why_words:
                notes.append(f"{why_words}; compared by words only")
            rows: list[Conflict] = list(overlaps)
            if session is not None:
                queries, problems = trigger_sets(library)
                notes += problems
                if not queries:
                    notes.append("no skill has evals/triggers.json, so no query was asked")
                else:
                    factory, settings = session
                    runner = EvalRunner(factory, settings, progress=self.status.setText)
                    report = SkillReport("library", "conflicts", runner.model_id)
                    try:
                        rows += await cross_triggers(runner, library, queries, report)
                    except (EvalError, LLMError) as exc:
                        notes.append("the queries were not all asked: " + (
                            exc.user_message if isinstance(exc, LLMError) else str(exc)))
        finally:
            for button in (self.describe_button, self.ask_button):
                button.setEnabled(True)
        self.model.set_conflicts(rows, library)
        overlapping = sum(isinstance(row, Overlap) for row in rows)
        self.status.setText(
            f"{len(library):,} skills: {overlapping} overlapping descriptions"
            + (f", {len(rows) - overlapping} queries that load another skill"
               if session is not None else "") + ("; " + "; ".join(notes) if notes else "."))

    def _on_describe_button_clicked(self) -> None:
        self.search()

    def _on_ask_button_clicked(self) -> None:
        self.search(ask_model=True)

    def _on_view_clicked(self, index: QModelIndex) -> None:
        skill = self.model.skill_at(index)
        if skill is not None:
            self.skill_open_requested.emit(skill.directory)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop the search and its worker thread (a new search starts another)."""
        if self.task is not None:
            self.task.cancel()
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None


def _overlaps(library: list[SkillSummary]) -> tuple[list[Overlap], str]:
    """In the worker: the overlapping descriptions, and why meaning was not compared ("" when it
    was, or the local model is simply not installed)."""
    embedder, why_not = local_embedder()
    return description_overlaps(library, embedder), why_not

"""Opening the Clients view: from Tools ▸ Clients: What Each Loads, and with one click from a
skill's tab (its "Clients…" button), focused on that skill.

The scans read every known skills folder of the project and the home, and may ask git what it
ignores: they run in a worker thread of this controller's own, never on the GUI thread (qasync's
default executor is made of QThreads, which Qt aborts on at exit while one runs).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QMenu, QTabWidget, QToolButton, QWidget

from studio.skills import toggles
from studio.skills.catalog import CLIENTS, Catalog, Entry, effective_catalog
from studio.ui.clients.clients_view import ClientsView
from studio.ui.editor.tabs import EditorTabs
from studio.ui.tasks import TaskSet

T = TypeVar("T")
CORNER = "clientsCorner"
HomeSource = Callable[[], Path]


def _home() -> Path:
    home = os.environ.get("HOME", "").strip()
    return Path(home) if home else Path.home()



class _Corner(QWidget):
    """The corner of a skill tab's views: its buttons side by side, but asking for no more
    minimum width than its widest button, so a button added here does not widen the window's
    minimum (on a window at its narrowest, the buttons overlap the views' tabs instead)."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        widths = [child.minimumSizeHint().width() for child in self.findChildren(QToolButton)
                  if child.isVisibleTo(self)]
        return QSize(max(widths, default=hint.width()), hint.height())

class ClientsViews(QObject):
    """The window's one Clients view, and the ways to open it.

    Attributes:
        action: Tools ▸ Clients: What Each Loads…, for the current skill's project (in the
            Tools menu given); each skill tab the editors open gets its one-click button.
    """

    def __init__(self, tasks: TaskSet, editors: EditorTabs, tools: QMenu, parent: QWidget,
                 home: HomeSource = _home) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._editors = editors
        self._home = home
        self._parent = parent
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="clients-catalog")
        self._view: ClientsView | None = None
        self.action = QAction("Clients: What Each Loads…", parent)
        self.action.setToolTip("Which skills each client (Claude Code, Codex, Gemini CLI, ...) "
                               "really loads for a project, and why not the others")
        self.action.triggered.connect(self._on_action_triggered)
        tools.addAction(self.action)
        editors.skill_opened.connect(self._on_editors_skill_opened)

    @property
    def view(self) -> ClientsView | None:
        return self._view

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, work)

    async def scan(self, client: str, project: Path | None) -> Catalog:
        home, env = self._home(), dict(os.environ)
        return await self._in_worker(lambda: effective_catalog(client, project, home, env))

    async def survey(self, project: Path | None, skill_file: Path) -> list[tuple[str, Entry | None]]:
        """The focused skill's row in every client's catalog (None where no folder it reads
        holds it)."""
        home, env = self._home(), dict(os.environ)
        wanted = skill_file.resolve()

        def work() -> list[tuple[str, Entry | None]]:
            answer: list[tuple[str, Entry | None]] = []
            for key, title in CLIENTS.items():
                catalog = effective_catalog(key, project, home, env)
                row = next((e for e in catalog.entries if e.path.resolve() == wanted), None)
                answer.append((title, row))
            return answer

        return await self._in_worker(work)

    def _ensure_view(self) -> ClientsView:
        if self._view is None:
            self._view = ClientsView(self.scan, self.survey, self._tasks, self._parent)
        return self._view

    def show_for_skill(self, skill_file: Path) -> ClientsView:
        """Open the view on the project the skill belongs to (the user's skills when it is in
        no project's client folder), focused on it."""
        view = self._ensure_view()
        view.show_for(toggles.project_of(skill_file.parent), focus=skill_file)
        return view

    def add_tab_button(self, views: QTabWidget, skill_file: Callable[[], Path]) -> QToolButton:
        """Put "Clients…" (which clients load this skill) in the corner of a skill tab's views, beside what
        already sits there (the form's fold button)."""
        corner = _Corner(views)
        corner.setObjectName(CORNER)
        row = QHBoxLayout(corner)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        button = QToolButton(corner)
        button.setObjectName("whichClients")
        # Short: the corner shares the tab bar's width with the views' tabs.
        button.setText("Clients…")
        button.setAccessibleName("Which clients load this skill?")
        button.setToolTip("Which clients load this skill, and why not the others: its state in "
                          "Claude Code, Codex, Gemini CLI, Copilot, Cursor, goose, OpenCode and "
                          "Ollama")
        button.setAutoRaise(True)
        button.clicked.connect(lambda _checked=False: self.show_for_skill(skill_file()))
        row.addWidget(button)
        existing = views.cornerWidget(Qt.Corner.TopRightCorner)
        if existing is not None:
            row.addWidget(existing)
        views.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        corner.show()
        if existing is not None:
            existing.show()
        return button

    def _on_editors_skill_opened(self, directory: Path) -> None:
        tab = self._editors.skill_tab(directory)
        if tab is not None and tab.views.findChild(QWidget, CORNER) is None \
                and not tab.doc.untitled:
            self.add_tab_button(tab.views, lambda: tab.path)

    def _on_action_triggered(self) -> None:
        tab = self._editors.current_skill_tab()
        if tab is not None and not tab.doc.untitled:
            self.show_for_skill(tab.path)
            return
        self._ensure_view().show_for(None)


__all__ = ["ClientsViews"]

"""Gives every skill editor tab an Evals view (and the window Tools ▸ Routing Conflicts), and
answers what those views ask of the window: the model picked in the chat (its server, grants and
audit log, with an approver of the run's own), the skills a skill is tried among, the chat's last
prompt, and where history is kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from studio.agent import Approver, AutoApprover, DenyAllApprover, SessionFactory, SessionSettings
from studio.evals import EvalHistory, ResultCache
from studio.settings import EvalSettings
from studio.skills import SkillSummary
from studio.skills.library import Library
from studio.ui.chat.model_bar import ModelBar
from studio.ui.editor.autosaving import Autosaver, Unsaved
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.tabs import EditorTabs
from studio.ui.evals.conflicts import ConflictsWindow
from studio.ui.evals.panel import EvalsPanel
from studio.ui.evals.services import EvalServices
from studio.ui.tasks import TaskSet

HISTORY_FILE = "eval-history.json"
TAB_TITLE = "Evals"


class EvalsTabs(QObject):
    """Attributes:
        services: what every Evals view is handed.
        panels: the Evals view of each open skill, by its editor tab.
    """

    def __init__(self, editors: EditorTabs, model_bar: ModelBar, chat: SessionFactory,
                 last_prompt: Callable[[], str | None], library: Library, history: Path,
                 tasks: TaskSet, autosaver: Autosaver, eval_servers: Callable[[], EvalSettings],
                 parent: QObject | None = None) -> None:
        """`eval_servers`: the servers Settings give evals, and the runs each takes at once."""
        super().__init__(parent)
        self._editors = editors
        self._autosaver = autosaver
        autosaver.add_source(self._unsaved_edits)
        self._model_bar = model_bar
        self._chat = chat
        self._library = library
        self._factories: dict[bool, SessionFactory] = {}
        self._servers_settings = eval_servers
        self._server_factories: dict[tuple[bool, str], SessionFactory] = {}
        self.services = EvalServices(self._sessions, self._catalog, last_prompt,
                                     EvalHistory(history), tasks, ResultCache(), self._servers)
        self.panels: dict[SkillEditorTab, EvalsPanel] = {}
        self.conflicts: ConflictsWindow | None = None
        self.conflicts_action = QAction("Routing &Conflicts in the Library…", self)
        self.conflicts_action.setStatusTip("Skills a model will confuse: overlapping descriptions, "
                                           "and trigger queries of one skill that load another")
        self.conflicts_action.triggered.connect(self.show_conflicts)
        editors.skill_opened.connect(self._on_editors_skill_opened)

    def show_conflicts(self) -> ConflictsWindow:
        """The library's routing conflicts, in a window of their own."""
        if self.conflicts is None:
            self.conflicts = ConflictsWindow(self._library.summaries, self._sessions,
                                             self.services.tasks, self._editors.tabs.window())
            self.conflicts.skill_open_requested.connect(self._editors.open_skill)
        self.conflicts.show()
        self.conflicts.raise_()
        return self.conflicts

    def close(self) -> None:
        """The window is closing: stop what runs in threads of the Evals views' own."""
        if self.conflicts is not None:
            self.conflicts.shutdown()

    def panel_for(self, tab: SkillEditorTab) -> EvalsPanel | None:
        return self.panels.get(tab)

    def _on_editors_skill_opened(self, directory: Path) -> None:
        tab = self._editors.skill_tab(directory)
        if tab is None or tab in self.panels:
            return
        panel = EvalsPanel(tab, self.services)
        self.panels[tab] = panel
        panel.files.unsaved_changed.connect(self._autosaver.schedule)
        tab.views.addTab(panel, TAB_TITLE)
        tab.views.setTabToolTip(tab.views.indexOf(panel), "Does the skill trigger, and does it "
                                "do the job, on your model: its evals and trigger queries")
        tab.views.currentChanged.connect(lambda _index, which=tab: self._on_views_changed(which))
        tab.destroyed.connect(lambda _object=None, which=tab: self._on_tab_destroyed(which))

    def _on_tab_destroyed(self, tab: SkillEditorTab) -> None:
        """A closed skill's run stops with its tab."""
        panel = self.panels.pop(tab, None)
        if panel is not None:
            panel.cancel()

    def _unsaved_edits(self) -> list[Unsaved]:
        """The eval files whose edits could not be saved, kept for recovery with the tabs."""
        return [edits for panel in self.panels.values() for edits in panel.files.unsaved]

    def _on_views_changed(self, tab: SkillEditorTab) -> None:
        panel = self.panels.get(tab)
        if panel is not None and tab.views.currentWidget() is panel:
            panel.reload_if_changed()

    def _sessions(self, auto_approve: bool) -> tuple[SessionFactory, SessionSettings] | str:
        if self._model_bar.current_model() is None:
            return ("Pick a model in the Chat pane first: the evals run on it (View ▸ Chat "
                    "shows the pane).")
        factory = self._factories.get(auto_approve)
        if factory is None:
            approver: Approver = AutoApprover() if auto_approve else DenyAllApprover()
            chat = self._chat
            factory = self._factories[auto_approve] = SessionFactory(
                approver, server=chat.server, grants=chat.grants, audit=chat.audit,
                agents=chat.agents)
        return factory, self._model_bar.turn_settings(False)

    def _servers(self, auto_approve: bool) -> tuple[list[tuple[SessionFactory, str]], int]:
        """The eval servers of Settings (none: the chat's alone), each with a session factory of
        its own, so its own connection, sharing the chat's grants and audit log; and the runs
        each takes at once."""
        evals = self._servers_settings()
        found = []
        for url in evals.servers:
            key = (auto_approve, url)
            factory = self._server_factories.get(key)
            if factory is None:
                chat = self._chat
                approver: Approver = AutoApprover() if auto_approve else DenyAllApprover()
                factory = self._server_factories[key] = SessionFactory(
                    approver, chat.server.http, grants=chat.grants, audit=chat.audit,
                    agents=chat.agents)
            found.append((factory, url))
        return found, evals.concurrency

    def _catalog(self, tab: SkillEditorTab) -> tuple[SkillSummary, list[SkillSummary]]:
        """The skill as saved, among the other loadable skills of its folder's parent (as
        `studio eval` tries it)."""
        target = self._editors.summary_of(tab)
        neighbours = [s for s in self._library.summaries()
                      if s.directory.parent == tab.directory.parent and s.loadable
                      and s.directory != tab.directory and not s.read_only]
        return target, [target, *neighbours]

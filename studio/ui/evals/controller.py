"""Gives every skill editor tab an Evals view, and answers what those views ask of the window:
the model picked in the chat (its server, grants and audit log, with an approver of the run's
own), the skills a skill is tried among, the chat's last prompt, and where history is kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject

from studio.agent.approval import Approver, AutoApprover, DenyAllApprover
from studio.agent.session import SessionFactory, SessionSettings
from studio.evals.cache import ResultCache
from studio.evals.history import EvalHistory
from studio.skills.library.collection import Library
from studio.skills.library.summary import SkillSummary
from studio.ui.chat.model_bar import ModelBar
from studio.ui.editor.autosaving import Autosaver, Unsaved
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.tabs import EditorTabs
from studio.ui.evals.panel import EvalServices, EvalsPanel
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
                 tasks: TaskSet, autosaver: Autosaver, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editors = editors
        self._autosaver = autosaver
        autosaver.add_source(self._unsaved_edits)
        self._model_bar = model_bar
        self._chat = chat
        self._library = library
        self._factories: dict[bool, SessionFactory] = {}
        self.services = EvalServices(self._sessions, self._catalog, last_prompt,
                                     EvalHistory(history), tasks, ResultCache())
        self.panels: dict[SkillEditorTab, EvalsPanel] = {}
        editors.skill_opened.connect(self._on_editors_skill_opened)

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

    def _catalog(self, tab: SkillEditorTab) -> tuple[SkillSummary, list[SkillSummary]]:
        """The skill as saved, among the other loadable skills of its folder's parent (as
        `studio eval` tries it)."""
        target = self._editors.summary_of(tab)
        neighbours = [s for s in self._library.summaries()
                      if s.directory.parent == tab.directory.parent and s.loadable
                      and s.directory != tab.directory and not s.read_only]
        return target, [target, *neighbours]

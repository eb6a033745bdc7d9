"""The chat's agent picker: the saved agents (`studio.agent.agents`), or none (the chat's own
settings). A picked agent's model, skills, system text and parameters make the following turns;
the core session does the rest. Its menu saves the current setup as an agent, and renames and
deletes agents."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from studio.agent import AgentError, AgentSpec, AgentStore
from studio.skills import SkillSummary
from studio.skills.scan import Collected, scan
from studio.ui import asyncqt
from studio.ui.chat.agent_dialog import AgentDialog, delete_agent, replace_agent
from studio.ui.chat.open_chat import TurnSetup
from studio.ui.tasks import TaskSet

NO_AGENT = "No agent (current settings)"
# Plain Python threads, not qasync's QThread executor: its threads outlive the loop that made them.
_SCANNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agent-skills")


class UnsavedSource(Protocol):
    """What the picker needs of the studio's skills: the unsaved text of an open editor."""

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None: ...


class AgentPicker(QWidget):
    """Picks the agent the chat runs as.

    Attributes:
        store: the saved agents.
        tasks: the chat's background tasks, which loading and saving agents run in.
        active: the agent picked and loaded (None: the chat's own settings).
        skills: the active agent's skills, read from its paths (None: it has none of its own,
            so the chat's choice of skills holds).

    Signals:
        agent_changed: the active agent changed (or was saved again).
        problem_found: (str) something the user should read: an agent that would not load, a
            skill path that is gone.
    """

    agent_changed = Signal()
    problem_found = Signal(str)

    def __init__(self, store: AgentStore, source: UnsavedSource,
                 setup: Callable[[], AgentSpec], tasks: TaskSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.active: AgentSpec | None = None
        self.skills: list[SkillSummary] | None = None
        self.tasks = tasks
        self._source = source
        self._setup = setup
        self._loading: asyncio.Task[None] | None = None

        self.combo = QComboBox()
        self.combo.setObjectName("agentCombo")
        self.combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(6)
        self.combo.setToolTip("Chat as a saved agent: its model, skills, system text and "
                              "parameters")
        self.menu_button = QToolButton()
        self.menu_button.setObjectName("agentMenuButton")
        self.menu_button.setText("⋯")
        self.menu_button.setToolTip("Save, rename, delete, import and export agents")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self.menu_button)
        self.save_action = self.menu.addAction("Save as Agent…")
        self.save_action.setStatusTip("Save the model, skills, system text and parameters of "
                                      "this chat as a named agent")
        self.rename_action = self.menu.addAction("Rename Agent…")
        self.delete_action = self.menu.addAction("Delete Agent")
        self.menu.addSeparator()
        self.menu_button.setMenu(self.menu)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        label = QLabel("Agent")
        label.setBuddy(self.combo)
        layout.addWidget(label)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.menu_button)

        self.combo.activated.connect(self._on_combo_activated)
        self.save_action.triggered.connect(self._on_save_action_triggered)
        self.rename_action.triggered.connect(self._on_rename_action_triggered)
        self.delete_action.triggered.connect(self._on_delete_action_triggered)
        self.refresh()

    # -- the list -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """List the saved agents again, keeping the active one picked (if it is still saved)."""
        names = self.store.names()
        self.combo.clear()
        self.combo.addItem(NO_AGENT, None)
        for name in names:
            self.combo.addItem(name, name)
        if self.active is not None and self.active.name not in names:
            self.active, self.skills = None, None
            self.agent_changed.emit()
        self._show_active()

    def _show_active(self) -> None:
        for row in range(1, self.combo.count()):
            self.combo.setItemText(row, str(self.combo.itemData(row)))
        agent = self.active
        index = self.combo.findData(agent.name) if agent is not None else 0
        if agent is not None and agent.model and index > 0:
            # The model picker still shows the chat's own model: say which one the agent runs.
            self.combo.setItemText(index, f"{agent.name} · {agent.model}")
        self.combo.setCurrentIndex(max(index, 0))
        self.rename_action.setEnabled(self.active is not None)
        self.delete_action.setEnabled(self.active is not None)
        self.combo.setToolTip(self.summary() or "Chat as a saved agent: its model, skills, "
                              "system text and parameters")

    def summary(self) -> str:
        """What the active agent changes, for a tooltip ("" for none)."""
        agent = self.active
        if agent is None:
            return ""
        parts = [f"Agent {agent.name}", f"model: {agent.model or 'the chat’s'}"]
        if self.skills is not None:
            parts.append("skills: " + (", ".join(self.skill_names()) or "none that load"))
        if agent.system:
            parts.append("system text: " + agent.system.splitlines()[0][:80])
        if agent.parameters:
            parts.append("parameters: " + ", ".join(f"{k} {v}" for k, v in agent.parameters.items()))
        return "\n".join(parts)

    def skill_names(self) -> list[str]:
        return [s.name for s in self.skills or () if s.loadable and s.name]

    # -- picking --------------------------------------------------------------------------------------

    def choose(self, name: str | None) -> asyncio.Task[None]:
        """Run the chat as the agent `name` (None: as itself) from the next turn; the task loads
        the agent and reads its skills."""
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
        self._loading = self.tasks.spawn(self._load(name))
        return self._loading

    async def _load(self, name: str | None) -> None:
        if name is None:
            self.active, self.skills = None, None
        else:
            try:
                spec = self.store.get(name)
            except AgentError as exc:
                self.problem_found.emit(f"The agent {name} could not be loaded: {exc}. The chat "
                                        "goes on with its own settings.")
                self.active, self.skills = None, None
            else:
                self.skills = await self._read_skills(spec)
                self.active = spec
        self._show_active()
        self.agent_changed.emit()

    async def _read_skills(self, spec: AgentSpec) -> list[SkillSummary] | None:
        if not spec.skills:
            return None
        paths = [Path(path).expanduser() for path in spec.skills]
        collected: Collected = await asyncio.wrap_future(_SCANNER.submit(scan, paths))
        if collected.problems:
            self.problem_found.emit(f"The agent {spec.name} names skills that could not be read: "
                                    + "; ".join(collected.problems)
                                    + ". Save the agent again with the skills it should have.")
        return collected.skills

    def apply(self, setup: TurnSetup) -> TurnSetup:
        """The turn as the active agent runs it: its model (else the chat's), its system text,
        its parameters over the chat's options, and only its skills (as their editors have
        them, saved or not) when it names any."""
        agent = self.active
        if agent is None:
            return setup
        settings = replace(setup.settings, model=agent.model or setup.settings.model,
                           system=agent.system,
                           options={**setup.settings.options, **agent.parameters})
        if self.skills is None:
            return replace(setup, settings=settings)
        skills: list[SkillSummary] = []
        overrides: dict[str, str] = {}
        for summary in self.skills:
            unsaved = self._source.unsaved(summary.directory)
            if unsaved is not None:
                summary = unsaved[0]
                if summary.name:
                    overrides[summary.name] = unsaved[1]
            skills.append(summary)
        return replace(setup, settings=settings, skills=skills, overrides=overrides,
                       chosen=tuple(self.skill_names()))

    def current(self) -> AgentSpec:
        """The setup the chat runs with now, as an agent (named after the active one, if any)."""
        if self.active is not None:
            return self.active
        return self._setup()

    # -- saving ---------------------------------------------------------------------------------------

    async def save_as(self) -> AgentSpec | None:
        """Ask for a name (and system text) and save the current setup as an agent."""
        dialog = AgentDialog("Save as agent", self.current(), self.store.names(), self.window())
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        return await self.save(dialog.spec())

    async def save(self, spec: AgentSpec, *, replacing: str | None = None) -> AgentSpec | None:
        """Save `spec` (asking before replacing an agent of its name other than `replacing`)
        and pick it; None when the user cancelled or it could not be saved."""
        if (spec.name != replacing and spec.name in self.store.names()
                and not await asyncqt.confirmed(replace_agent(self.window(), spec.name))):
            return None
        try:
            self.store.save(spec)
        except AgentError as exc:
            self.problem_found.emit(f"The agent was not saved: {exc}. Check that the folder "
                                    f"{self.store.folder} can be written.")
            return None
        self.refresh()
        await self.choose(spec.name)
        return spec

    async def rename_active(self) -> AgentSpec | None:
        old = self.active
        if old is None:
            return None
        dialog = AgentDialog(f"Rename agent {old.name}", old, self.store.names(), self.window())
        dialog.system_edit.setEnabled(False)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted or dialog.name == old.name:
            return None
        # Saved under the new name first: a failure on the way leaves the agent saved.
        saved = await self.save(replace(old, name=dialog.name), replacing=old.name)
        if saved is None:
            return None
        try:
            self.store.delete(old.name)
        except AgentError as exc:
            self.problem_found.emit(f"{exc}; the agent is saved as {saved.name} too.")
        self.refresh()
        return saved

    async def delete_active(self) -> bool:
        agent = self.active
        if agent is None or not await asyncqt.confirmed(delete_agent(self.window(), agent.name)):
            return False
        try:
            self.store.delete(agent.name)
        except AgentError as exc:
            self.problem_found.emit(str(exc))
            return False
        await self.choose(None)
        self.refresh()
        return True

    # -- slots ----------------------------------------------------------------------------------------

    def _on_combo_activated(self, index: int) -> None:
        name = self.combo.itemData(index, Qt.ItemDataRole.UserRole)
        self.choose(name if isinstance(name, str) else None)

    def _on_save_action_triggered(self) -> None:
        self.tasks.spawn(self.save_as())

    def _on_rename_action_triggered(self) -> None:
        self.tasks.spawn(self.rename_active())

    def _on_delete_action_triggered(self) -> None:
        self.tasks.spawn(self.delete_active())

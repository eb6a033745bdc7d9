"""File ▸ Import Agentfile… and Export as Agentfile… (Ollama's format, `studio.agent.agentfile`),
and Tools ▸ Custom Prompts…; the agent picker's menu offers them too.

An import is read with the core parser: a line it cannot read stops the import with its number and
nothing saved; lines it does not use are shown, and the user chooses whether to import the rest.
The agent is then saved by name (asking before replacing one) and picked in the chat. An export
writes the picked agent, or the chat's own setup, atomically, asking before replacing a file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QDockWidget, QFileDialog, QMainWindow

from studio.agent.agentfile import AgentfileError, parse_agentfile, read_agentfile, to_agentfile
from studio.agent.agents import AgentSpec
from studio.fsutil import atomic_write_text
from studio.settings import SettingsStore
from studio.ui import asyncqt
from studio.ui.chat.agent_dialog import AgentDialog, overwrite_file, unused_lines
from studio.ui.chat.agent_picker import AgentPicker
from studio.ui.chat.prompts_dialog import NextTurn, PromptsDialog
from studio.ui.confirm import information
from studio.ui.menus import Menus
from studio.ui.tasks import TaskSet

FILTERS = "Agentfiles (Agentfile *.agentfile Modelfile);;All files (*)"
# The name an export of the chat's own setup (no agent picked) goes by.
UNNAMED = "agent"


class AgentFiles(QObject):
    """The window's Agentfile and custom-prompt actions.

    Attributes:
        tasks: the chat's background tasks, which the import and export run in.
        import_action, export_action, prompts_action: File ▸ Import Agentfile…, File ▸ Export
            as Agentfile…, Tools ▸ Custom Prompts….
        prompts_dialog: the custom prompts dialog, once opened.
    """

    def __init__(self, window: QMainWindow, picker: AgentPicker, store: SettingsStore,
                 next_turn: NextTurn, dock: QDockWidget, menus: Menus, tasks: TaskSet) -> None:
        super().__init__(window)
        self._window = window
        self._picker = picker
        self._store = store
        self._next_turn = next_turn
        self._dock = dock
        self.tasks = tasks
        self.prompts_dialog: PromptsDialog | None = None
        self.import_action = self._action("&Import Agentfile…", self._on_import_action_triggered,
                                          "Save an agent from an Ollama Agentfile and chat as it")
        self.export_action = self._action(
            "&Export as Agentfile…", self._on_export_action_triggered,
            "Write the picked agent (or the chat's model and skills) as an Ollama Agentfile")
        self.prompts_action = self._action(
            "Custom &Prompts…", self.show_prompts,
            "Put the system prompt's instructions and the tools' descriptions in your own words, "
            "and see what the model is sent")
        _insert_before_settings(menus, [self.import_action, self.export_action])
        menus.tools.addSeparator()
        menus.tools.addAction(self.prompts_action)
        for action in (self.import_action, self.export_action, None, self.prompts_action):
            if action is None:
                picker.menu.addSeparator()
            else:
                picker.menu.addAction(action)

    def _action(self, text: str, slot: Callable[[], object], tip: str) -> QAction:
        action = QAction(text, self._window)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    # -- import ---------------------------------------------------------------------------------------

    async def import_agentfile(self) -> AgentSpec | None:
        """Ask for an Agentfile and import it."""
        dialog = QFileDialog(self._window, "Import Agentfile", str(Path.home()), FILTERS)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        return await self.import_from(Path(dialog.selectedFiles()[0]))

    async def import_from(self, path: Path) -> AgentSpec | None:
        """Read the Agentfile at `path`, save its agent under the name the user gives, and pick
        it in the chat; None when it was not imported (the user was told why)."""
        try:
            agentfile = read_agentfile(path)
        except AgentfileError as exc:
            await asyncqt.ask(information(
                self._window, "Agentfile not imported",
                f"{exc}\n\nNothing was saved. Correct the file, then import it again."))
            return None
        if agentfile.warnings and not await asyncqt.confirmed(
                unused_lines(self._window, path, agentfile.warnings)):
            return None
        dialog = AgentDialog(f"Import {path.name}", agentfile.spec, self._picker.store.names(),
                             self._window)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        saved = await self._picker.save(dialog.spec())
        if saved is not None:
            self._dock.show()
            self._dock.raise_()
            self._window.statusBar().showMessage(
                f"Imported the agent {saved.name} from {path}; the chat now runs as it.", 8000)
        return saved

    # -- export ---------------------------------------------------------------------------------------

    async def export_agentfile(self) -> Path | None:
        """Ask where to write the picked agent (or the chat's setup) as an Agentfile."""
        name = self._picker.current().name or UNNAMED
        dialog = QFileDialog(self._window, "Export as Agentfile",
                             str(Path.home() / f"{name}.agentfile"), FILTERS)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        # Replacing a file is asked about here, without the dialog's own nested question.
        dialog.setOption(QFileDialog.Option.DontConfirmOverwrite)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        return await self.export_to(Path(dialog.selectedFiles()[0]))

    async def export_to(self, target: Path) -> Path | None:
        """Write the picked agent (or the chat's setup) to `target`, asking before replacing a
        file; None when nothing was written (the user was told why)."""
        spec = self._picker.current()
        spec = replace(spec, name=spec.name or UNNAMED)
        if target.is_dir():
            await asyncqt.ask(information(self._window, "Agentfile not exported",
                                          f"{target} is a folder. Pick a file name."))
            return None
        text = to_agentfile(spec)
        if not _reads_back(text, spec, target.parent):
            await asyncqt.ask(information(
                self._window, "Agentfile not exported",
                f"The agent {spec.name} cannot be written as an Agentfile that reads back the "
                "same: a line of its system text ends in \"\"\", or a skill path or a parameter holds a line "
                "break, or a parameter is not a number, a word or a list of them. Change the "
                "agent, then export it again."))
            return None
        if target.exists() and not await asyncqt.confirmed(overwrite_file(self._window, target)):
            return None
        try:
            atomic_write_text(target, text)
        except OSError as exc:
            await asyncqt.ask(information(
                self._window, "Agentfile not exported",
                f"{target} could not be written: {exc.strerror or exc}. Pick another folder."))
            return None
        self._window.statusBar().showMessage(f"Exported the agent {spec.name} to {target}.", 8000)
        return target

    # -- prompts --------------------------------------------------------------------------------------

    def show_prompts(self) -> PromptsDialog:
        """Open the custom prompts dialog (one at a time), showing the saved prompts and an
        up-to-date preview."""
        if self.prompts_dialog is not None and not self.prompts_dialog.isVisible():
            self.prompts_dialog.deleteLater()
            self.prompts_dialog = None
        if self.prompts_dialog is None:
            self.prompts_dialog = PromptsDialog(self._store, self._next_turn, self._window)
        self.prompts_dialog.show()
        self.prompts_dialog.raise_()
        return self.prompts_dialog

    def _on_import_action_triggered(self) -> None:
        self.tasks.spawn(self.import_agentfile())

    def _on_export_action_triggered(self) -> None:
        self.tasks.spawn(self.export_agentfile())


def _reads_back(text: str, spec: AgentSpec, base: Path) -> bool:
    """Whether the Agentfile `text` reads back as `spec` (the format has no escapes)."""
    try:
        return parse_agentfile(text, spec.name, base).spec == spec
    except AgentfileError:
        return False


def _insert_before_settings(menus: Menus, actions: list[QAction]) -> None:
    """Put `actions` in the File menu as a group of their own, before its last two groups
    (Settings, Quit)."""
    separators = [action for action in menus.file.actions() if action.isSeparator()]
    if len(separators) < 2:
        menus.file.addSeparator()
        menus.file.addActions(actions)
        return
    anchor = separators[-2]
    menus.file.insertActions(anchor, actions)
    menus.file.insertSeparator(actions[0])

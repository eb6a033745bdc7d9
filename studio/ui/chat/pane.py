"""The chat pane, docked beside the editor: pick a backend and a model, choose the skills the model
sees, and chat; every command a skill would run is approved in a dialog first.

The pane holds the backend's state, the saved chats and the core's `SessionFactory` (model server,
approver, grants, audit log); a `ChatSession` runs each turn in a core session and shows it in the
`Transcript`.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import httpx
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent import (
    AgentSpec,
    ChatSkillDraft,
    DraftUnusable,
    SessionFactory,
    SessionSettings,
    engine_problem,
)
from studio.chats import ChatInfo, ChatStore, ChatStoreError, export_markdown, history
from studio.fsutil import atomic_write_text
from studio.llm.errors import LLMError
from studio.settings import BACKEND_KINDS, BackendKind, SettingsStore
from studio.skills.library.summary import SkillSummary
from studio.ui import asyncqt
from studio.ui.chat.agent_picker import AgentPicker
from studio.ui.chat.backend import (
    BACKEND_LABELS,
    Backend,
    ModelChoice,
    local_choice,
    local_models,
    turn_settings,
    url_for,
)
from studio.ui.chat.chat_list_model import ChatListModel
from studio.ui.chat.first_run import FirstRunPanel
from studio.ui.chat.invoke_completer import InvocationCompleter, invocable_names
from studio.ui.chat.model_combo import ModelCombo
from studio.ui.chat.render import warm_up
from studio.ui.chat.session import ChatSession, TurnSetup
from studio.ui.chat.style import CHAT_STYLE
from studio.ui.chat.transcript import Transcript
from studio.ui.dialogs.approval import DialogApprover
from studio.ui.dialogs.models import ModelsDialog
from studio.ui.dialogs.skill_folder import SkillFolderDialog
from studio.ui.numbers import count_text
from studio.ui.tasks import TaskSet

LIGHT_COLOURS = {"ready": "#2da44e", "checking": "#d99a00", "starting": "#d99a00",
                 "down": "#d23a3a", "idle": "#7a7f87", "unknown": "#7a7f87"}


class SkillSource(Protocol):
    """Where the pane finds skills: the library's, and the unsaved text of open editors."""

    def library_skills(self) -> list[SkillSummary]: ...

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None:
        """The skill as its open editor has it (summary of the unsaved text, and the text), or
        None when it is not open with unsaved changes."""
        ...

    def writable_folders(self) -> list[Path]:
        """The skill folders new skills can be created in, the library's first first."""
        ...


class _NoSkills:
    def library_skills(self) -> list[SkillSummary]:
        return []

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None:
        return None

    def writable_folders(self) -> list[Path]:
        return []


class PromptEdit(QPlainTextEdit):
    """The message box: Enter sends, Shift+Enter starts a new line, Esc stops the answer.

    Signals:
        submitted: Enter was pressed.
        stop_requested: Esc was pressed.
    """

    submitted = Signal()
    stop_requested = Signal()
    completer: InvocationCompleter | None = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # While `/NAME` completions show, these keys are the popup's (pick, close).
        if self.completer is not None and self.completer.showing() and event.key() in (
                Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab):
            event.ignore()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self.submitted.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.stop_requested.emit()
            return
        super().keyPressEvent(event)


class ChatPane(QWidget):
    """The chat dock's widget.

    Attributes:
        backend: the model server.
        session: the chat shown and its running turn.
        sessions: makes the core chat sessions the turns run in; holds the model server,
            the approver, the grants ("always allow") and the audit log they share.
        store: the saved chats (None when the file cannot be opened; chats then are not saved).

    Signals:
        busy_changed: (bool) an answer started or ended.
        skill_drafted: (name, SKILL.md text) the model drafted a skill from the chat, for the
            editor to open unsaved.
    """

    busy_changed = Signal(bool)
    skill_drafted = Signal(str, str)

    def __init__(self, settings: SettingsStore, skills: SkillSource | None = None, *,
                 chat_store: ChatStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatPane")
        self.setStyleSheet(CHAT_STYLE)
        self.settings_store = settings
        self.skills = skills if skills is not None else _NoSkills()
        self.tasks = TaskSet()
        self.backend = Backend(self)
        self.approver = DialogApprover(self)
        self.sessions = SessionFactory(self.approver, server=self.backend.server)
        self._store_problem: str | None = None
        self.store = chat_store if chat_store is not None else self._open_store()
        self._chosen: tuple[str, ...] | None = None
        self._tried: dict[Path, SkillSummary] = {}
        self._choices: list[ModelChoice] = []
        self._filling = False
        self._drafting = False
        # Chat id -> where the model's new skills go, asked at the chat's first create_skill.

        self.backend_combo = QComboBox()
        for kind in BACKEND_KINDS:
            self.backend_combo.addItem(BACKEND_LABELS[kind], kind)
        self.backend_combo.setToolTip("Which kind of model server to chat with")
        self.backend_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.backend_combo.setMinimumContentsLength(7)
        self.model_combo = ModelCombo()
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_combo.setMinimumContentsLength(6)
        self.model_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.model_combo.setToolTip("The model to chat with; “no tools” models cannot use skills")
        self.status_light = QLabel("●")
        self.status_light.setObjectName("statusLight")
        self.refresh_button = QToolButton()
        self.refresh_button.setText("⟳")
        self.refresh_button.setToolTip("Ask the server for its models again")
        self.think_check = QCheckBox("Think")
        self.think_check.setToolTip("Let the model think before it answers (models that can)")
        self.server_message = QLabel()
        self.server_message.setObjectName("serverMessage")
        self.server_message.setWordWrap(True)
        self.server_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.server_message.hide()
        self.first_run = FirstRunPanel()
        self.first_run.hide()
        self.models_dialog: ModelsDialog | None = None

        self.chat_list = ChatListModel(self.store, self)
        self.chat_combo = QComboBox()
        self.chat_combo.setModel(self.chat_list)
        self.chat_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.chat_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.chat_combo.setMinimumContentsLength(6)
        self.chat_combo.setToolTip("Saved chats; pick one to reopen it")
        self.new_button = QToolButton()
        self.new_button.setText("New")
        self.new_button.setToolTip("Start a new chat (Ctrl+Shift+N)")
        self.more_button = QToolButton()
        self.more_button.setText("⋯")
        self.more_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more_menu = QMenu(self.more_button)
        self.regenerate_action = self.more_menu.addAction("Regenerate the Last Answer")
        self.copy_action = self.more_menu.addAction("Copy the Last Answer")
        self.export_action = self.more_menu.addAction("Export Chat as Markdown…")
        self.rename_action = self.more_menu.addAction("Rename This Chat…")
        self.save_skill_action = self.more_menu.addAction("Save Chat as Skill…")
        self.save_skill_action.setToolTip("The model drafts a skill from this chat; it opens in "
                                          "the editor, unsaved, for you to check and save")
        self.more_menu.addSeparator()
        self.delete_action = self.more_menu.addAction("Delete This Chat")
        self.more_button.setMenu(self.more_menu)

        self.skills_button = QToolButton()
        self.skills_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        # Ignored: a long list of skill names must not widen the dock; the tooltip has it all.
        self.skills_button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.skills_button.setMinimumWidth(60)
        self.skills_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.skills_menu = QMenu(self.skills_button)
        self.skills_button.setMenu(self.skills_menu)
        self.skills_button.setToolTip("Which skills the model sees")
        self.skill_folder_label = QLabel()
        self.skill_folder_label.setObjectName("skillFolder")
        self.skill_folder_label.setWordWrap(True)
        self.skill_folder_label.hide()

        self.transcript = Transcript()
        self.session = ChatSession(self.store, self.transcript, self.sessions, self)
        self.agent_picker = AgentPicker(self.sessions.agents, self.skills, self._setup_as_agent,
                                        self.tasks)

        self.input = PromptEdit()
        self.input.setObjectName("chatInput")
        self.input.completer = InvocationCompleter(
            self.input, lambda: invocable_names(self.skills.library_skills()))
        self.input.setPlaceholderText("Ask something; Enter sends, Shift+Enter starts a new line")
        self.input.setFixedHeight(self.input.fontMetrics().lineSpacing() * 4 + 12)
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(False)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop the answer and any command it runs (Esc)")
        self.stop_button.hide()

        top = QHBoxLayout()
        top.setSpacing(4)
        top.addWidget(self.backend_combo)
        top.addWidget(self.model_combo, 1)
        top.addWidget(self.status_light)
        top.addWidget(self.refresh_button)
        chats = QHBoxLayout()
        chats.setSpacing(4)
        chats.addWidget(self.chat_combo, 1)
        chats.addWidget(self.new_button)
        chats.addWidget(self.more_button)
        skills_row = QHBoxLayout()
        skills_row.setSpacing(4)
        skills_row.addWidget(QLabel("Skills"))
        skills_row.addWidget(self.skills_button, 1)
        skills_row.addWidget(self.think_check)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.input, 1)
        bottom.addLayout(buttons)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.server_message)
        layout.addWidget(self.first_run)
        layout.addLayout(chats)
        layout.addWidget(self.agent_picker)
        layout.addLayout(skills_row)
        layout.addWidget(self.skill_folder_label)
        layout.addWidget(self.transcript, 1)
        layout.addLayout(bottom)

        self._stop_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self._stop_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._stop_shortcut.activated.connect(self.stop)
        self._new_shortcut = QShortcut(QKeySequence("Ctrl+Shift+N"), self)
        self._new_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._new_shortcut.activated.connect(self.new_chat)

        self.backend_combo.currentIndexChanged.connect(self._on_backend_combo_current_index_changed)
        self.model_combo.currentIndexChanged.connect(self._on_model_combo_current_index_changed)
        self.think_check.toggled.connect(self._on_think_check_toggled)
        self.refresh_button.clicked.connect(self._on_refresh_button_clicked)
        self.backend.state_changed.connect(self._on_backend_state_changed)
        self.first_run.local_models_requested.connect(self._on_first_run_local_models_requested)
        self.first_run.local_model_chosen.connect(self.use_local_model)
        self.first_run.download_requested.connect(self.show_models_dialog)
        self.first_run.server_chosen.connect(self.connect_to)
        self.chat_combo.activated.connect(self._on_chat_combo_activated)
        self.new_button.clicked.connect(self.new_chat)
        self.regenerate_action.triggered.connect(self._on_regenerate_action_triggered)
        self.copy_action.triggered.connect(self.copy_last_answer)
        self.export_action.triggered.connect(self._on_export_action_triggered)
        self.delete_action.triggered.connect(self.delete_chat)
        self.rename_action.triggered.connect(self._on_rename_action_triggered)
        self.save_skill_action.triggered.connect(self._on_save_skill_action_triggered)
        self.skills_menu.aboutToShow.connect(self._on_skills_menu_about_to_show)
        self.input.submitted.connect(self._on_input_submitted)
        self.input.stop_requested.connect(self.stop)
        self.send_button.clicked.connect(self._on_input_submitted)
        self.stop_button.clicked.connect(self.stop)
        self.session.busy_changed.connect(self._on_session_busy_changed)
        self.session.chat_saved.connect(self._on_session_chat_saved)
        self.agent_picker.agent_changed.connect(self._update_skills_button)
        self.agent_picker.problem_found.connect(self._on_agent_picker_problem_found)

        # Lexers compile their patterns on first use; do it away from the window's thread once
        # the user starts on a chat, not at the start, where the thread's hold on the
        # interpreter lock made the loading of a large library stall the window.
        self._warmed = False
        self.input.textChanged.connect(self._warm_up_lexers)
        self.session.busy_changed.connect(self._warm_up_lexers)
        self._load_backend_settings()
        self._on_backend_state_changed(self.backend.state, self.backend.message)
        self.new_chat()
        if self._store_problem:
            self.transcript.add_notice(self._store_problem, "error")

    def _open_store(self) -> ChatStore | None:
        try:
            store = ChatStore()
        except ChatStoreError as exc:
            self._store_problem = str(exc)
            return None
        self._store_problem = store.problem
        return store

    # -- the backend ------------------------------------------------------------------------------

    def _load_backend_settings(self) -> None:
        backend = self.settings_store.settings.backend
        self._filling = True
        self.backend_combo.setCurrentIndex(BACKEND_KINDS.index(backend.kind))
        self.think_check.setChecked(backend.think)
        self._filling = False
        self.backend.configure(backend.kind, url_for(backend, backend.kind),
                               (backend.connect_timeout, backend.idle_timeout))
        self._fill_models([])

    def attach(self, http: httpx.AsyncClient) -> None:
        """Connect to the app's HTTP client and ask the server for its models."""
        self.backend.attach(http)
        self.refresh_models()

    def refresh_models(self) -> asyncio.Task[None]:
        return self.tasks.spawn(self._refresh_models())

    def apply_settings(self) -> asyncio.Task[None]:
        """Show the backend, model and options Settings now hold, and ask the server again."""
        self._load_backend_settings()
        if self.first_run.local_note.isVisibleTo(self.first_run):
            # What it said was found may have changed: a GGUF file set, a model folder added.
            self._on_first_run_local_models_requested()
        return self.refresh_models()

    async def _refresh_models(self) -> None:
        settings = self.settings_store.settings
        backend = settings.backend
        self.backend.configure(backend.kind, url_for(backend, backend.kind),
                               (backend.connect_timeout, backend.idle_timeout))
        asked = (backend.kind, url_for(backend, backend.kind))
        await self.backend.stop_unused_engine()
        try:
            choices = await self.backend.list_models(backend.gguf_path, settings.model_folders)
        except LLMError:
            choices = []
        # A slow answer from a server the user has since switched away from is not shown.
        backend = self.settings_store.settings.backend
        if (backend.kind, url_for(backend, backend.kind)) == asked:
            self._fill_models(choices)

    def use_local_model(self, path: str) -> asyncio.Task[None]:
        """Chat with the GGUF file at `path` in the embedded engine, from now on."""
        backend = self.settings_store.settings.backend
        backend.switch_to("embedded")
        backend.gguf_path = path
        self._save_settings()
        return self.apply_settings()

    def connect_to(self, kind: str, url: str) -> asyncio.Task[None]:
        """Chat with the `kind` server at `url`, from now on."""
        backend = self.settings_store.settings.backend
        backend.switch_to(kind if kind in BACKEND_KINDS else "openai")  # type: ignore[arg-type]
        backend.url = url
        self._save_settings()
        return self.apply_settings()

    def show_models_dialog(self) -> ModelsDialog:
        """Open the Models dialog (one at a time: a download in progress stays on show)."""
        if self.models_dialog is None:
            self.models_dialog = ModelsDialog(self.window())
            self.models_dialog.model_chosen.connect(self.use_local_model)
        self.models_dialog.show()
        self.models_dialog.raise_()
        return self.models_dialog

    def _on_first_run_local_models_requested(self) -> None:
        self.tasks.spawn(self._show_local_models())

    async def _show_local_models(self) -> None:
        problem = engine_problem()
        if problem is not None:
            self.first_run.show_engine_problem(problem)
            return
        settings = self.settings_store.settings
        found = await local_models(settings.model_folders)
        choices = [local_choice(m) for m in found if m.facts is not None]
        # The GGUF file Settings name is one on this computer too, wherever it is.
        configured = settings.backend.gguf_path
        if configured and Path(configured).is_file() and all(c.name != configured
                                                             for c in choices):
            choices.insert(0, ModelChoice(configured, Path(configured).name,
                                          details="set in Settings"))
        self.first_run.show_local_models(choices)

    def _fill_models(self, choices: list[ModelChoice]) -> None:
        backend = self.settings_store.settings.backend
        wanted = backend.gguf_path if backend.kind == "embedded" else backend.model
        if wanted and all(choice.name != wanted for choice in choices):
            label = Path(wanted).name if backend.kind == "embedded" else wanted
            choices = [*choices, ModelChoice(wanted, label)]
        self._choices = choices
        self._filling = True
        self.model_combo.clear()
        for choice in choices:
            self.model_combo.addItem(choice.marked_label, choice.name)
            if choice.details:
                self.model_combo.setItemData(self.model_combo.count() - 1,
                                             f"{choice.marked_label}\n{choice.name}",
                                             Qt.ItemDataRole.ToolTipRole)
            if choice.supports_tools is False:
                self.model_combo.setItemData(
                    self.model_combo.count() - 1,
                    "This model cannot use tools, so it cannot load or run skills.",
                    Qt.ItemDataRole.ToolTipRole)
        names = [choice.name for choice in choices]
        self.model_combo.setCurrentIndex(names.index(wanted) if wanted in names else 0)
        self._filling = False
        if choices and self.model_combo.currentIndex() >= 0:
            self._model_chosen(choices[self.model_combo.currentIndex()])
        self.model_combo.setPlaceholderText("no models" if not choices else "")
        self._update_first_run()

    def current_model(self) -> ModelChoice | None:
        index = self.model_combo.currentIndex()
        return self._choices[index] if 0 <= index < len(self._choices) else None

    def _model_chosen(self, choice: ModelChoice) -> None:
        backend = self.settings_store.settings.backend
        self.think_check.setEnabled(choice.supports_thinking is not False)
        self.think_check.setToolTip(
            "This model cannot think" if choice.supports_thinking is False
            else "Let the model think before it answers")
        if backend.kind == "embedded":
            changed = backend.gguf_path != choice.name
            backend.gguf_path = choice.name
        else:
            changed = backend.model != choice.name
            backend.model = choice.name
        if changed:
            self._save_settings()

    def _save_settings(self) -> None:
        try:
            self.settings_store.save()
        except OSError as exc:
            self.server_message.setText(f"The chat settings could not be saved: {exc}")
            self.server_message.show()

    def _on_backend_combo_current_index_changed(self, index: int) -> None:
        if self._filling:
            return
        backend = self.settings_store.settings.backend
        kind: BackendKind = BACKEND_KINDS[index]  # type: ignore[assignment]
        backend.switch_to(kind)
        self._save_settings()
        self.refresh_models()

    def _on_model_combo_current_index_changed(self, index: int) -> None:
        if not self._filling and 0 <= index < len(self._choices):
            self._model_chosen(self._choices[index])

    def _on_think_check_toggled(self, checked: bool) -> None:
        if not self._filling:
            self.settings_store.settings.backend.think = checked
            self._save_settings()

    def _on_refresh_button_clicked(self) -> None:
        self.refresh_models()

    def _on_backend_state_changed(self, state: str, message: str) -> None:
        self.status_light.setStyleSheet(f"color: {LIGHT_COLOURS.get(state, '#7a7f87')};")
        self.status_light.setToolTip(message or "Not checked yet")
        self.server_message.setText(message)
        self.server_message.setVisible(state == "down" and bool(message))
        self._update_first_run()

    def _update_first_run(self) -> None:
        # Nothing to chat with: offer the ways to get a model instead of only saying so.
        state = self.backend.state
        stuck = state == "down" or (state == "idle" and not self._choices)
        self.first_run.setVisible(stuck and not self.session.busy)

    # -- skills -----------------------------------------------------------------------------------

    def _candidates(self) -> list[SkillSummary]:
        found = {s.directory: s for s in self.skills.library_skills()}
        found.update(self._tried)
        return list(found.values())

    def resolve_skills(self) -> tuple[list[SkillSummary], dict[str, str]]:
        """The skills this chat's model gets, as the editors have them now, and the unsaved
        SKILL.md texts that replace the files."""
        skills: list[SkillSummary] = []
        overrides: dict[str, str] = {}
        for summary in self._candidates():
            unsaved = self.skills.unsaved(summary.directory)
            if unsaved is not None:
                summary = unsaved[0]
            if self._chosen is not None and summary.name not in self._chosen:
                continue
            skills.append(summary)
            if unsaved is not None and summary.name:
                overrides[summary.name] = unsaved[1]
        return skills, overrides

    def _skills_text(self) -> str:
        if self.agent_picker.skills is not None:
            return ", ".join(self.agent_picker.skill_names()) or "None"
        if self._chosen is None:
            count = sum(1 for s in self.skills.library_skills() if s.loadable)
            return f"All in the library ({count_text(count)})"
        return ", ".join(self._chosen) if self._chosen else "None"

    def refresh_skills(self) -> None:
        """Show the library's skills again (after a scan)."""
        self._update_skills_button()

    def set_chosen_skills(self, names: tuple[str, ...] | None) -> None:
        self._chosen = names
        self._update_skills_button()

    def _update_skills_button(self) -> None:
        text = self._skills_text()
        self.skills_button.setText(text)
        agent = self.agent_picker.active
        chooses = agent is not None and self.agent_picker.skills is not None
        self.skills_button.setEnabled(not chooses)
        self.skills_button.setToolTip(f"The model sees: {text}" + (
            f" (the agent {agent.name}'s skills)" if chooses and agent is not None else ""))
        self._update_placeholder()

    def _on_skills_menu_about_to_show(self) -> None:
        menu = self.skills_menu
        menu.clear()
        every = menu.addAction("All loadable skills in the library")
        every.setCheckable(True)
        every.setChecked(self._chosen is None)
        every.triggered.connect(lambda: self.set_chosen_skills(None))
        menu.addSeparator()
        names = sorted({s.name for s in self._candidates() if s.loadable and s.name})
        for name in names:
            action = menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(self._chosen is not None and name in self._chosen)
            action.toggled.connect(lambda on, which=name: self._toggle_skill(which, on))
        if not names:
            menu.addAction("(no loadable skills in the library)").setEnabled(False)

    def _toggle_skill(self, name: str, on: bool) -> None:
        chosen = list(self._chosen or ())
        if on and name not in chosen:
            chosen.append(name)
        elif not on and name in chosen:
            chosen.remove(name)
        self.set_chosen_skills(tuple(chosen))

    def try_skill(self, summary: SkillSummary) -> bool:
        """Start a new chat with only this skill (as its editor has it, saved or not)."""
        if self.session.busy:
            self.transcript.add_notice("Stop the answer in progress first, then try the skill.")
            return False
        unsaved = self.skills.unsaved(summary.directory)
        name = (unsaved[0] if unsaved is not None else summary).name or summary.display_name
        self._tried[summary.directory] = summary
        self.new_chat()
        self.set_chosen_skills((name,))
        self.input.setPlaceholderText(f"Ask something that uses {name}; Enter sends")
        self.input.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    # -- chats ------------------------------------------------------------------------------------

    def new_chat(self) -> None:
        """Show a new, empty chat (after stopping the answer in progress, if any)."""
        self._switch_to(None)

    def open_chat(self, chat_id: int) -> None:
        chat = next((c for c in self.chat_list.chats() if c.id == chat_id), None)
        if chat is not None:
            self._switch_to(chat)

    def _switch_to(self, chat: ChatInfo | None) -> None:
        if self.session.busy:
            # The stopped turn still writes its last card and note; let it, then switch.
            self.session.stop()
            self.tasks.spawn(self._switch_when_stopped(chat))
            return
        self._show_chat(chat)

    async def _switch_when_stopped(self, chat: ChatInfo | None) -> None:
        await self.session.wait()
        self._show_chat(chat)

    def _show_chat(self, chat: ChatInfo | None) -> None:
        self.session.open(chat)
        if chat is None:
            self.input.setPlaceholderText("Ask something; Enter sends, Shift+Enter starts a new line")
        else:
            self._chosen = chat.skills
        self.chat_combo.setCurrentIndex(self.chat_list.row_of(chat.id if chat else None))
        self._update_skills_button()
        self._update_skill_folder()
        self._update_actions()

    def delete_chat(self) -> None:
        chat = self.session.chat
        if chat is None or self.store is None or self.session.busy:
            return
        try:
            self.store.delete_chat(chat.id)
        except ChatStoreError as exc:
            self.transcript.add_notice(str(exc), "error")
            return
        self.chat_list.refresh()
        self.new_chat()

    def _on_chat_combo_activated(self, row: int) -> None:
        chat = self.chat_list.chat_at(row)
        if chat is None:
            self.new_chat()
        elif self.session.chat is None or chat.id != self.session.chat.id:
            self.open_chat(chat.id)

    def _on_session_chat_saved(self) -> None:
        self.chat_list.refresh()
        chat = self.session.chat
        self.chat_combo.setCurrentIndex(self.chat_list.row_of(chat.id if chat else None))

    def _update_placeholder(self) -> None:
        chosen = (tuple(self.agent_picker.skill_names()) if self.agent_picker.skills is not None
                  else self._chosen)
        if chosen is None:
            seen = "the catalog of every loadable skill in the library"
        elif chosen:
            seen = "these skills: " + ", ".join(chosen)
        else:
            seen = "no skills"
        self.transcript.set_placeholder(
            f"Ask something. The model sees {seen}. It can load a skill's instructions, read its "
            "files and run its scripts; you approve each command that needs it.")

    def _update_actions(self) -> None:
        busy = self.session.busy
        has_answer = self.session.last_prompt() is not None
        self.regenerate_action.setEnabled(not busy and has_answer)
        self.copy_action.setEnabled(bool(self.transcript.answers()))
        self.export_action.setEnabled(bool(self.session.messages))
        self.delete_action.setEnabled(not busy and self.session.chat is not None)
        self.rename_action.setEnabled(self.session.chat is not None)
        self.save_skill_action.setEnabled(not busy and not self._drafting and has_answer)
        self.send_button.setVisible(not busy)
        self.stop_button.setVisible(busy)

    # -- turns ------------------------------------------------------------------------------------

    def _setup(self) -> TurnSetup:
        backend = self.settings_store.settings.backend
        choice = self.current_model()
        skills, overrides = self.resolve_skills()
        think = self.think_check.isChecked() and self.think_check.isEnabled()
        settings = turn_settings(backend, choice.name if choice is not None else "", think,
                                 self.settings_store.settings.prompts)
        sandbox = self.settings_store.settings.sandbox
        settings = replace(settings, create_in=self.skill_folder(), limits=sandbox.limits(),
                           allow_env=tuple(sandbox.env))
        return self.agent_picker.apply(TurnSetup(settings, skills, overrides, self._chosen,
                                                 self._choose_skill_folder))

    def next_turn(self) -> tuple[SessionSettings, list[SkillSummary]]:
        """The settings and skills the next turn would run with (what the prompt preview shows)."""
        setup = self._setup()
        return setup.settings, setup.skills

    def _setup_as_agent(self) -> AgentSpec:
        """The chat's own setup as an unnamed agent: the model picked and the skills chosen
        (none for the whole library)."""
        choice = self.current_model()
        folders = (() if self._chosen is None
                   else tuple(str(s.directory) for s in self.resolve_skills()[0]))
        return AgentSpec("", choice.name if choice is not None else "", folders)

    def _on_agent_picker_problem_found(self, message: str) -> None:
        self.transcript.add_notice(message, "error")

    def skill_folder(self) -> Path | None:
        """Where the open chat's new skills go, once asked (and while it is still a folder: a
        saved chat whose folder went is asked again)."""
        chat = self.session.chat
        folder = chat.drafts_folder if chat is not None else None
        return folder if folder is not None and folder.is_dir() else None

    async def _choose_skill_folder(self, skill: str) -> Path | None:
        """Asked by the chat's first `create_skill`: which writable skill folder its new skills
        go in; remembered for the chat."""
        folders = self.skills.writable_folders()
        if not folders:
            self.transcript.add_notice("The model wants to create a skill, but the library has "
                                       "no folder of skills it can write to. Add one (File ▸ "
                                       "Add Folder of Skills), then ask again.", "error")
            return None
        dialog = SkillFolderDialog(folders, skill, self)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        folder = dialog.folder()
        self.session.set_drafts_folder(folder)
        self._update_skill_folder()
        return folder

    def _update_skill_folder(self) -> None:
        folder = self.skill_folder()
        self.skill_folder_label.setVisible(folder is not None)
        if folder is not None:
            self.skill_folder_label.setText(f"New skills go to {folder.name or folder}")
            self.skill_folder_label.setToolTip(f"Skills the model creates in this chat are saved "
                                               f"in {folder}, after you approve each one")

    def send(self, text: str | None = None) -> asyncio.Task[None] | None:
        """Send `text` (or what is typed) as the next message; the turn's task, or None."""
        prompt = (text if text is not None else self.input.toPlainText()).strip()
        if not prompt or self.session.busy:
            return None
        self.input.clear()
        return self.session.send(prompt, self._setup())

    def regenerate(self) -> asyncio.Task[None] | None:
        if self.session.busy:
            return None
        return self.session.regenerate(self._setup())

    def stop(self) -> None:
        """Cancel the answer and any command running for it, at once."""
        self.session.stop()

    def copy_last_answer(self) -> None:
        answers = [a for a in self.transcript.answers() if a.text.strip()]
        if answers:
            QGuiApplication.clipboard().setText(answers[-1].text)

    async def rename_chat(self) -> bool:
        """Ask for a new title for the open chat and save it."""
        chat = self.session.chat
        if chat is None:
            return False
        dialog = QInputDialog(self)
        dialog.setWindowTitle("Rename chat")
        dialog.setLabelText("Title:")
        dialog.setTextValue(chat.title)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return False
        return self.session.rename(dialog.textValue())

    def _on_rename_action_triggered(self) -> None:
        self.tasks.spawn(self.rename_chat())

    async def save_as_skill(self) -> ChatSkillDraft | None:
        """Ask the chat's model to draft a skill from this chat, offering to try again when its
        answer is unusable; the draft goes out as `skill_drafted`. Nothing is written."""
        if self.session.busy or self._drafting or not self.session.messages:
            return None
        conversation = history(self.session.messages)
        self._drafting = True
        self._update_actions()
        try:
            while True:
                setup = self._setup()
                self.transcript.add_notice(
                    f"Asking {setup.settings.model or 'the model'} to draft a skill from this chat…")
                try:
                    draft = await self.sessions.draft_skill(setup.settings, conversation)
                except DraftUnusable as exc:
                    problem = str(exc)
                except LLMError as exc:
                    problem = exc.user_message
                else:
                    self.transcript.add_notice(
                        f"Drafted the skill {draft.name}; it is open in the editor, not saved yet.")
                    self.skill_drafted.emit(draft.name, draft.text)
                    return draft
                if not await self._retry_draft(problem):
                    self.transcript.add_notice(f"No skill was drafted: {problem}", "error")
                    return None
        finally:
            self._drafting = False
            self._update_actions()

    async def _retry_draft(self, problem: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, "No skill drafted",
                          "The model's answer could not be made into a skill.",
                          QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Cancel,
                          self)
        box.setInformativeText(problem)
        box.setDefaultButton(QMessageBox.StandardButton.Retry)
        return await asyncqt.answer(box) == QMessageBox.StandardButton.Retry

    def _on_save_skill_action_triggered(self) -> None:
        self.tasks.spawn(self.save_as_skill())

    async def export_chat(self) -> Path | None:
        """Ask where to save the chat as Markdown, and save it there."""
        chat = self.session.chat
        if chat is None:
            return None
        dialog = QFileDialog(self, "Export chat as Markdown", _safe_name(chat.title) + ".md",
                             "Markdown (*.md)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("md")
        if await asyncqt.ask(dialog) != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        target = Path(dialog.selectedFiles()[0])
        return self.export_to(target)

    def export_to(self, target: Path) -> Path | None:
        chat = self.session.chat
        if chat is None:
            return None
        try:
            atomic_write_text(target, export_markdown(chat, self.session.messages))
        except OSError as exc:
            self.transcript.add_notice(f"The chat could not be exported to {target}: "
                                       f"{exc.strerror or exc}. Pick another folder.", "error")
            return None
        return target

    async def shutdown(self) -> None:
        """Stop the answer in progress and the embedded engine; close the chats file."""
        self.session.stop()
        await self.session.wait()
        self.tasks.cancel_all()
        await self.backend.shutdown()
        if self.store is not None:
            self.store.close()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.transcript.restyle()

    def _on_input_submitted(self) -> None:
        self.send()

    def _on_regenerate_action_triggered(self) -> None:
        self.regenerate()

    def _on_export_action_triggered(self) -> None:
        self.tasks.spawn(self.export_chat())

    def _warm_up_lexers(self) -> None:
        if not self._warmed:
            self._warmed = True
            threading.Thread(target=warm_up, name="lexer-warm-up", daemon=True).start()

    def _on_session_busy_changed(self, busy: bool) -> None:
        self._update_actions()
        if not busy:
            self.input.setFocus(Qt.FocusReason.OtherFocusReason)
        self.busy_changed.emit(busy)


def _safe_name(title: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in " -_" else "-" for c in title).strip()
    return cleaned[:60] or "chat"

"""The chat pane, docked beside the editor: pick a backend and a model, choose the skills the model
sees, and chat; every command a skill would run is approved in a dialog first.

The pane lays out its parts (the `ModelBar`, the `SkillChooser`, the `ChatActions` on whole
chats, the `Transcript`) and sends and stops turns: it holds the saved chats and the core's
`SessionFactory` (model server, approver, grants, audit log); an `OpenChat` runs each turn in a core
session and shows it in the transcript.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent import AgentSpec, SessionFactory, SessionSettings
from studio.chats import ChatInfo, ChatStore, ChatStoreError
from studio.settings import SettingsStore
from studio.skills import SkillSummary
from studio.skills.search import Embedder
from studio.ui.chat.agent_picker import AgentPicker
from studio.ui.chat.approval_dialog import DialogApprover
from studio.ui.chat.chat_actions import ChatActions
from studio.ui.chat.invoke_completer import InvocationCompleter, invocable_names
from studio.ui.chat.model_bar import ModelBar
from studio.ui.chat.open_chat import OpenChat, TurnSetup
from studio.ui.chat.render import warm_up
from studio.ui.chat.sandbox_bar import SandboxBar
from studio.ui.chat.skill_chooser import NoSkills, SkillChooser, SkillSource
from studio.ui.chat.style import CHAT_STYLE
from studio.ui.chat.transcript import Transcript
from studio.ui.tasks import TaskSet

DEFAULT_PLACEHOLDER = "Ask something; Enter sends, Shift+Enter starts a new line"


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
        model_bar: the model picked, and the server's state.
        sandbox_bar: says why commands run without a sandbox, while they would.
        skill_chooser: which skills the model sees.
        chat_actions: the saved chats, and what is done with a whole chat.
        session: the chat shown and its running turn.
        sessions: makes the core chat sessions the turns run in; holds the model server,
            the approver, the grants ("always allow") and the audit log they share.
        store: the saved chats (None when the file cannot be opened; chats then are not saved).
        search_index: the window's search index, which the model's `search_skills` shares, so
            each ranks with the vectors the other made (None: the model is not offered the tool).
        search_embedder: gives the embedding model the window's search ranks by meaning with
            (None: words only); asked at each turn, as the window's search asks at each search.

    Signals:
        busy_changed: (bool) an answer started or ended.
    """

    busy_changed = Signal(bool)

    def __init__(self, settings: SettingsStore, skills: SkillSource | None = None, *,
                 chat_store: ChatStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatPane")
        self.setStyleSheet(CHAT_STYLE)
        self.settings_store = settings
        self.skills = skills if skills is not None else NoSkills()
        self.tasks = TaskSet()
        self.model_bar = ModelBar(settings, self.tasks, self)
        self.approver = DialogApprover(self)
        self.sessions = SessionFactory(self.approver, server=self.model_bar.backend.server)
        self._store_problem: str | None = None
        self.store = chat_store if chat_store is not None else self._open_store()
        self.search_index: Path | None = None
        self.search_embedder: Callable[[], Embedder | None] = lambda: None

        self.sandbox_bar = SandboxBar(self)
        self.sandbox_bar.check()
        self.transcript = Transcript()
        self.session = OpenChat(self.store, self.transcript, self.sessions, self)
        self.agent_picker = AgentPicker(self.sessions.agents, self.skills, self._setup_as_agent,
                                        self.tasks)
        self.skill_chooser = SkillChooser(self.skills, self.agent_picker, self)
        self.chat_actions = ChatActions(self.store, self.session, self.transcript, self.sessions,
                                        self.skills, self._setup, self.tasks, self)

        self.input = PromptEdit()
        self.input.setObjectName("chatInput")
        self.input.completer = InvocationCompleter(
            self.input, lambda: invocable_names(self.skills.library_skills()))
        self.input.setPlaceholderText(DEFAULT_PLACEHOLDER)
        self.input.setFixedHeight(self.input.fontMetrics().lineSpacing() * 4 + 12)
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(False)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop the answer and any command it runs (Esc)")
        self.stop_button.hide()
        self._lay_out()

        self._stop_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self._stop_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._stop_shortcut.activated.connect(self.stop)
        self._new_shortcut = QShortcut(QKeySequence("Ctrl+Shift+N"), self)
        self._new_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._new_shortcut.activated.connect(self.chat_actions.new_chat)

        self.chat_actions.regenerate_action.triggered.connect(self._on_regenerate_action_triggered)
        self.chat_actions.chat_shown.connect(self._on_chat_actions_chat_shown)
        self.skill_chooser.chosen_changed.connect(self._update_placeholder)
        self.input.submitted.connect(self._on_input_submitted)
        self.input.stop_requested.connect(self.stop)
        self.send_button.clicked.connect(self._on_input_submitted)
        self.stop_button.clicked.connect(self.stop)
        self.session.busy_changed.connect(self._on_session_busy_changed)
        self.agent_picker.problem_found.connect(self._on_agent_picker_problem_found)

        # Lexers compile their patterns on first use; do it away from the window's thread once
        # the user starts on a chat, not at the start, where the thread's hold on the
        # interpreter lock made the loading of a large library stall the window.
        self._warmed = False
        self.input.textChanged.connect(self._warm_up_lexers)
        self.session.busy_changed.connect(self._warm_up_lexers)
        self.chat_actions.new_chat()
        if self._store_problem:
            self.transcript.add_notice(self._store_problem, "error")

    def _lay_out(self) -> None:
        bar = self.model_bar
        top = QHBoxLayout()
        top.setSpacing(4)
        top.addWidget(bar.backend_combo)
        top.addWidget(bar.model_combo, 1)
        top.addWidget(bar.status_light)
        top.addWidget(bar.refresh_button)
        chats = QHBoxLayout()
        chats.setSpacing(4)
        chats.addWidget(self.chat_actions.chat_combo, 1)
        chats.addWidget(self.chat_actions.new_button)
        chats.addWidget(self.chat_actions.more_button)
        skills_row = QHBoxLayout()
        skills_row.setSpacing(4)
        skills_row.addWidget(QLabel("Skills"))
        skills_row.addWidget(self.skill_chooser.skills_button, 1)
        skills_row.addWidget(bar.think_check)
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
        layout.addWidget(bar.server_message)
        layout.addWidget(self.sandbox_bar)
        layout.addWidget(bar.first_run)
        layout.addLayout(chats)
        layout.addWidget(self.agent_picker)
        layout.addLayout(skills_row)
        layout.addWidget(self.chat_actions.skill_folder_label)
        layout.addWidget(self.transcript, 1)
        layout.addLayout(bottom)

    def _open_store(self) -> ChatStore | None:
        try:
            store = ChatStore()
        except ChatStoreError as exc:
            self._store_problem = str(exc)
            return None
        self._store_problem = store.problem
        return store

    def try_skill(self, summary: SkillSummary) -> bool:
        """Start a new chat with only this skill (as its editor has it, saved or not)."""
        if self.session.busy:
            self.transcript.add_notice("Stop the answer in progress first, then try the skill.")
            return False
        self.chat_actions.new_chat()
        name = self.skill_chooser.try_skill(summary)
        self.input.setPlaceholderText(f"Ask something that uses {name}; Enter sends")
        self.input.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def _on_chat_actions_chat_shown(self, chat: ChatInfo | None) -> None:
        if chat is None:
            self.input.setPlaceholderText(DEFAULT_PLACEHOLDER)
            self.skill_chooser.refresh()
        else:
            self.skill_chooser.set_chosen(chat.skills)
        self._show_busy()

    def _update_placeholder(self) -> None:
        self.transcript.set_placeholder(
            f"Ask something. The model sees {self.skill_chooser.seen()}. It can load a skill's "
            "instructions, read its files and run its scripts; you approve each command that "
            "needs it.")

    def _show_busy(self) -> None:
        busy = self.session.busy
        self.send_button.setVisible(not busy)
        self.stop_button.setVisible(busy)

    # -- turns ------------------------------------------------------------------------------------

    def _setup(self) -> TurnSetup:
        skills, overrides = self.skill_chooser.resolve_skills()
        settings = self.model_bar.turn_settings(self.model_bar.thinks(),
                                                self.settings_store.settings.prompts)
        sandbox = self.settings_store.settings.sandbox
        settings = replace(settings, create_in=self.chat_actions.skill_folder(),
                           limits=sandbox.limits(), allow_env=tuple(sandbox.env),
                           search_index=self.search_index,
                           search_embedder=self.search_embedder() if self.search_index else None)
        return self.agent_picker.apply(TurnSetup(settings, skills, overrides,
                                                 self.skill_chooser.chosen,
                                                 self.chat_actions.choose_skill_folder))

    def next_turn(self) -> tuple[SessionSettings, list[SkillSummary]]:
        """The settings and skills the next turn would run with (what the prompt preview shows)."""
        setup = self._setup()
        return setup.settings, setup.skills

    def last_prompt(self) -> str | None:
        """The open chat's last message from the user, if any (what an eval can start from)."""
        message = self.session.last_prompt()
        return message.content if message is not None else None

    def _setup_as_agent(self) -> AgentSpec:
        """The chat's own setup as an unnamed agent: the model picked and the skills chosen
        (none for the whole library)."""
        choice = self.model_bar.current_model()
        return AgentSpec("", choice.name if choice is not None else "",
                         self.skill_chooser.chosen_folders())

    def _on_agent_picker_problem_found(self, message: str) -> None:
        self.transcript.add_notice(message, "error")

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

    async def shutdown(self) -> None:
        """Stop the answer in progress and the embedded engine; close the chats file."""
        self.session.stop()
        await self.session.wait()
        self.tasks.cancel_all()
        await self.model_bar.backend.shutdown()
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

    def _warm_up_lexers(self) -> None:
        if not self._warmed:
            self._warmed = True
            threading.Thread(target=warm_up, name="lexer-warm-up", daemon=True).start()

    def _on_session_busy_changed(self, busy: bool) -> None:
        self.model_bar.set_busy(busy)
        self.chat_actions.update_actions()
        self._show_busy()
        if not busy:
            self.input.setFocus(Qt.FocusReason.OtherFocusReason)
        self.busy_changed.emit(busy)

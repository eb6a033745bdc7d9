"""What the chat pane does with whole chats: the list of saved chats (new, reopen, rename, delete),
the folder a chat's new skills go to, a skill drafted from the chat, and the chat exported as
Markdown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from studio.agent import ChatSkillDraft, DraftUnusable, SessionFactory
from studio.chats import ChatInfo, ChatStore, ChatStoreError, export_markdown, history
from studio.fsutil import atomic_write_text
from studio.llm import LLMError
from studio.ui import asyncqt
from studio.ui.chat.chat_list_model import ChatListModel
from studio.ui.chat.open_chat import OpenChat, TurnSetup
from studio.ui.chat.skill_chooser import SkillSource
from studio.ui.chat.skill_folder_dialog import SkillFolderDialog
from studio.ui.chat.transcript import Transcript
from studio.ui.tasks import TaskSet


class ChatActions(QObject):
    """The saved chats' list and the ⋯ menu's actions; the pane lays out their widgets.

    Attributes:
        chat_list, chat_combo: the saved chats, and the box that picks one.
        new_button, more_button, more_menu: a new chat, and the menu of the rest.
        regenerate_action: for the pane, which runs turns.
        copy_action, export_action, rename_action, save_skill_action, delete_action: the menu's.
        skill_folder_label: where the open chat's new skills go, once asked.

    Signals:
        chat_shown: (ChatInfo or None) a chat was opened, or a new one started.
        skill_drafted: (name, SKILL.md text) the model drafted a skill from the chat, for the
            editor to open unsaved.
    """

    chat_shown = Signal(object)
    skill_drafted = Signal(str, str)

    def __init__(self, store: ChatStore | None, session: OpenChat, transcript: Transcript,
                 sessions: SessionFactory, skills: SkillSource, setup: Callable[[], TurnSetup],
                 tasks: TaskSet, host: QWidget) -> None:
        super().__init__(host)
        self._store = store
        self._session = session
        self._transcript = transcript
        self._sessions = sessions
        self._skills = skills
        self._setup = setup
        self._tasks = tasks
        self._host = host
        self._drafting = False

        self.chat_list = ChatListModel(store, self)
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
        self.skill_folder_label = QLabel()
        self.skill_folder_label.setObjectName("skillFolder")
        self.skill_folder_label.setWordWrap(True)
        self.skill_folder_label.hide()

        self.chat_combo.activated.connect(self._on_chat_combo_activated)
        self.new_button.clicked.connect(self.new_chat)
        self.copy_action.triggered.connect(self.copy_last_answer)
        self.export_action.triggered.connect(self._on_export_action_triggered)
        self.delete_action.triggered.connect(self.delete_chat)
        self.rename_action.triggered.connect(self._on_rename_action_triggered)
        self.save_skill_action.triggered.connect(self._on_save_skill_action_triggered)
        session.chat_saved.connect(self._on_session_chat_saved)

    # -- the list of chats ------------------------------------------------------------------------

    def new_chat(self) -> None:
        """Show a new, empty chat (after stopping the answer in progress, if any)."""
        self._switch_to(None)

    def open_chat(self, chat_id: int) -> None:
        chat = next((c for c in self.chat_list.chats() if c.id == chat_id), None)
        if chat is not None:
            self._switch_to(chat)

    def _switch_to(self, chat: ChatInfo | None) -> None:
        if self._session.busy:
            # The stopped turn still writes its last card and note; let it, then switch.
            self._session.stop()
            self._tasks.spawn(self._switch_when_stopped(chat))
            return
        self._show_chat(chat)

    async def _switch_when_stopped(self, chat: ChatInfo | None) -> None:
        await self._session.wait()
        self._show_chat(chat)

    def _show_chat(self, chat: ChatInfo | None) -> None:
        self._session.open(chat)
        self.chat_combo.setCurrentIndex(self.chat_list.row_of(chat.id if chat else None))
        self._update_skill_folder()
        self.update_actions()
        self.chat_shown.emit(chat)

    def delete_chat(self) -> None:
        chat = self._session.chat
        if chat is None or self._store is None or self._session.busy:
            return
        try:
            self._store.delete_chat(chat.id)
        except ChatStoreError as exc:
            self._transcript.add_notice(str(exc), "error")
            return
        self.chat_list.refresh()
        self.new_chat()

    async def rename_chat(self) -> bool:
        """Ask for a new title for the open chat and save it."""
        chat = self._session.chat
        if chat is None:
            return False
        dialog = QInputDialog(self._host)
        dialog.setWindowTitle("Rename chat")
        dialog.setLabelText("Title:")
        dialog.setTextValue(chat.title)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return False
        return self._session.rename(dialog.textValue())

    def _on_chat_combo_activated(self, row: int) -> None:
        chat = self.chat_list.chat_at(row)
        if chat is None:
            self.new_chat()
        elif self._session.chat is None or chat.id != self._session.chat.id:
            self.open_chat(chat.id)

    def _on_session_chat_saved(self) -> None:
        self.chat_list.refresh()
        chat = self._session.chat
        self.chat_combo.setCurrentIndex(self.chat_list.row_of(chat.id if chat else None))

    def _on_rename_action_triggered(self) -> None:
        self._tasks.spawn(self.rename_chat())

    def update_actions(self) -> None:
        """Enable what the open chat allows now."""
        busy = self._session.busy
        has_answer = self._session.last_prompt() is not None
        self.regenerate_action.setEnabled(not busy and has_answer)
        self.copy_action.setEnabled(bool(self._transcript.answers()))
        self.export_action.setEnabled(bool(self._session.messages))
        self.delete_action.setEnabled(not busy and self._session.chat is not None)
        self.rename_action.setEnabled(self._session.chat is not None)
        self.save_skill_action.setEnabled(not busy and not self._drafting and has_answer)

    # -- the drafts folder ------------------------------------------------------------------------

    def skill_folder(self) -> Path | None:
        """Where the open chat's new skills go, once asked (and while it is still a folder: a
        saved chat whose folder went is asked again)."""
        chat = self._session.chat
        folder = chat.drafts_folder if chat is not None else None
        return folder if folder is not None and folder.is_dir() else None

    async def choose_skill_folder(self, skill: str) -> Path | None:
        """Asked by the chat's first `create_skill`: which writable skill folder its new skills
        go in; remembered for the chat."""
        folders = self._skills.writable_folders()
        if not folders:
            self._transcript.add_notice("The model wants to create a skill, but the library has "
                                        "no folder of skills it can write to. Add one (File ▸ "
                                        "Add Folder of Skills), then ask again.", "error")
            return None
        dialog = SkillFolderDialog(folders, skill, self._host)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        folder = dialog.folder()
        self._session.set_drafts_folder(folder)
        self._update_skill_folder()
        return folder

    def _update_skill_folder(self) -> None:
        folder = self.skill_folder()
        self.skill_folder_label.setVisible(folder is not None)
        if folder is not None:
            self.skill_folder_label.setText(f"New skills go to {folder.name or folder}")
            self.skill_folder_label.setToolTip(f"Skills the model creates in this chat are saved "
                                               f"in {folder}, after you approve each one")

    # -- drafting a skill -------------------------------------------------------------------------

    async def save_as_skill(self) -> ChatSkillDraft | None:
        """Ask the chat's model to draft a skill from this chat, offering to try again when its
        answer is unusable; the draft goes out as `skill_drafted`. Nothing is written."""
        if self._session.busy or self._drafting or not self._session.messages:
            return None
        conversation = history(self._session.messages)
        self._drafting = True
        self.update_actions()
        try:
            while True:
                setup = self._setup()
                self._transcript.add_notice(
                    f"Asking {setup.settings.model or 'the model'} to draft a skill from this chat…")
                try:
                    draft = await self._sessions.draft_skill(setup.settings, conversation)
                except DraftUnusable as exc:
                    problem = str(exc)
                except LLMError as exc:
                    problem = exc.user_message
                else:
                    self._transcript.add_notice(
                        f"Drafted the skill {draft.name}; it is open in the editor, not saved yet.")
                    self.skill_drafted.emit(draft.name, draft.text)
                    return draft
                if not await self._retry_draft(problem):
                    self._transcript.add_notice(f"No skill was drafted: {problem}", "error")
                    return None
        finally:
            self._drafting = False
            self.update_actions()

    async def _retry_draft(self, problem: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, "No skill drafted",
                          "The model's answer could not be made into a skill.",
                          QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Cancel,
                          self._host)
        box.setInformativeText(problem)
        box.setDefaultButton(QMessageBox.StandardButton.Retry)
        return await asyncqt.answer(box) == QMessageBox.StandardButton.Retry

    def _on_save_skill_action_triggered(self) -> None:
        self._tasks.spawn(self.save_as_skill())

    # -- copying and exporting --------------------------------------------------------------------

    def copy_last_answer(self) -> None:
        answers = [a for a in self._transcript.answers() if a.text.strip()]
        if answers:
            QGuiApplication.clipboard().setText(answers[-1].text)

    async def export_chat(self) -> Path | None:
        """Ask where to save the chat as Markdown, and save it there."""
        chat = self._session.chat
        if chat is None:
            return None
        dialog = QFileDialog(self._host, "Export chat as Markdown", _safe_name(chat.title) + ".md",
                             "Markdown (*.md)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("md")
        if await asyncqt.ask(dialog) != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        return self.export_to(Path(dialog.selectedFiles()[0]))

    def export_to(self, target: Path) -> Path | None:
        chat = self._session.chat
        if chat is None:
            return None
        try:
            atomic_write_text(target, export_markdown(chat, self._session.messages))
        except OSError as exc:
            self._transcript.add_notice(f"The chat could not be exported to {target}: "
                                        f"{exc.strerror or exc}. Pick another folder.", "error")
            return None
        return target

    def _on_export_action_triggered(self) -> None:
        self._tasks.spawn(self.export_chat())


def _safe_name(title: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in " -_" else "-" for c in title).strip()
    return cleaned[:60] or "chat"

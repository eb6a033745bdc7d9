"""One chat on screen: its saved messages, the transcript that shows them, and the turn that runs
as a task in a core chat session (`studio.agent.session`), each of its events mapped to the view
and every finished message saved at once.

Stop cancels the turn's task: the model's HTTP stream closes, a running tool's process group is
killed (see `studio.agent.run`), an open approval dialog closes, and what was shown so far is
saved with a note that it was stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar, cast

from PySide6.QtCore import QObject, Signal
from shiboken6 import isValid

from studio.agent import (
    ChatNotice,
    Done,
    Error,
    Event,
    FolderChooser,
    HoldError,
    SessionFactory,
    SessionSettings,
    TextDelta,
    ThinkingDelta,
    ToolCallRequested,
    ToolFinished,
    ToolOutput,
    record_for,
    stop_record,
    update_record,
)
from studio.agent import ChatSession as CoreSession
from studio.chats import (
    ChatInfo,
    ChatStore,
    ChatStoreError,
    StoredMessage,
    history,
    title_for,
)
from studio.llm import Message
from studio.skills import SkillSummary
from studio.ui.chat.cards import ToolCard
from studio.ui.chat.forkcard import RecordCard
from studio.ui.chat.transcript import AssistantItem, Transcript
from studio.ui.tasks import TaskSet

T = TypeVar("T")

STOPPED_RESULT = "not finished: the user stopped the chat"


@dataclass(slots=True)
class TurnSetup:
    """What one turn needs besides the conversation.

    Attributes:
        settings: the core session's settings (backend, model, timeouts, workspace mode).
        overrides: skill name -> unsaved SKILL.md text that replaces the file for this turn.
        chosen: the skill names the user chose for the chat; None for the whole library.
        choose_folder: asks where the chat's new skills go, when `settings.create_in` is None.
    """

    settings: SessionSettings
    skills: list[SkillSummary]
    overrides: dict[str, str] = field(default_factory=dict)
    chosen: tuple[str, ...] | None = None
    choose_folder: FolderChooser | None = None


class OpenChat(QObject):
    """The chat shown in a transcript, and its running turn.

    Attributes:
        chat: the saved chat, or None for a new one that has no message yet.
        messages: the chat's saved messages, in order.
        sessions: makes the core session the chat's turns run in: one per chat, made again only
            when the settings, the skills or their unsaved texts change, so that what it learnt
            of the model (its context length, whether it calls tools) is asked once.

    Held files (a run's writes other tools would run) land or go when the user presses Keep or
    Discard on the run's card; the core does it (`SessionFactory.keep_writes`).

    Signals:
        busy_changed: (bool) a turn started or ended.
        chat_saved: the chat was created or its title, model or skills changed.
    """

    busy_changed = Signal(bool)
    chat_saved = Signal()

    def __init__(self, store: ChatStore | None, transcript: Transcript, sessions: SessionFactory,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.transcript = transcript
        self.sessions = sessions
        self.chat: ChatInfo | None = None
        self.messages: list[StoredMessage] = []
        self._tasks = TaskSet()
        self._task: asyncio.Task[None] | None = None
        self._answer: AssistantItem | None = None
        self._cards: dict[str, ToolCard] = {}
        self._saved_upto = 0
        self._store_failed = False
        self._core: CoreSession | None = None
        self._core_key: tuple[object, ...] = ()
        transcript.held_decided.connect(self._on_transcript_held_decided)

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    # -- opening chats ------------------------------------------------------------------------------

    def open(self, chat: ChatInfo | None) -> None:
        """Show a saved chat (None: a new, empty one)."""
        self.chat = chat
        self._core = None
        self.messages = self.store.messages(chat.id) if self.store is not None and chat else []
        self.transcript.show_messages(self.messages)
        for card in self.transcript.cards():
            writes = card.record.writes
            if (writes is not None and writes.hold_id is not None and writes.decision is None
                    and not self.sessions.writes_pending(writes.hold_id)):
                writes.decision = "gone"
                card.show_record()
        self.transcript.scroll_to_end()

    def _on_transcript_held_decided(self, card: RecordCard, keep: bool) -> None:
        writes = card.record.writes
        if writes is None or writes.hold_id is None or writes.decision is not None:
            return
        try:
            landing = (self.sessions.keep_writes(writes.hold_id) if keep
                       else self.sessions.discard_writes(writes.hold_id))
        except HoldError as exc:
            writes.decision = "gone"
            writes.problems = (*writes.problems, str(exc))
        else:
            writes.decision = "kept" if keep else "discarded"
            writes.problems = (*writes.problems, *landing.problems)
        card.show_record()

    def last_prompt(self) -> StoredMessage | None:
        return next((m for m in reversed(self.messages) if m.role == "user"), None)

    # -- turns --------------------------------------------------------------------------------------

    def send(self, prompt: str, setup: TurnSetup) -> asyncio.Task[None]:
        """Start a turn answering `prompt`; the task is what Stop cancels."""
        self._ensure_chat(prompt, setup)
        self._update_chat(setup)
        self.transcript.add_user(prompt)
        self._save(StoredMessage("user", prompt))
        return self._start(setup)

    def regenerate(self, setup: TurnSetup) -> asyncio.Task[None] | None:
        """Answer the last prompt again, forgetting the answer after it; None if there is none."""
        prompt = self.last_prompt()
        if prompt is None or self.chat is None:
            return None
        chat_id = self.chat.id
        self._guard(lambda store: store.truncate(chat_id, prompt.seq + 1))
        self.messages = [m for m in self.messages if m.seq <= prompt.seq]
        self.transcript.show_messages(self.messages)
        self._update_chat(setup)
        return self._start(setup)

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def wait(self) -> None:
        """Until the running turn (if any) has ended, however it ends."""
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.shield(self._task)

    def _start(self, setup: TurnSetup) -> asyncio.Task[None]:
        conversation = history(self.messages)
        self._task = self._tasks.spawn(self._run(setup, conversation))
        self.busy_changed.emit(True)
        self._task.add_done_callback(self._on_task_done)
        return self._task

    def _on_task_done(self, task: asyncio.Task[None]) -> None:
        if isValid(self):
            self.busy_changed.emit(False)

    def _ensure_chat(self, prompt: str, setup: TurnSetup) -> None:
        if self.chat is not None:
            return
        if self.store is None:
            self.chat = ChatInfo(0, title_for(prompt), 0.0, 0.0, setup.settings.backend, setup.settings.model,
                                 setup.chosen)
            return
        self.chat = self._guard(lambda store: store.create_chat(
            title=title_for(prompt), backend=setup.settings.backend, model=setup.settings.model,
            skills=setup.chosen)) or ChatInfo(0, title_for(prompt), 0.0, 0.0)
        self.chat_saved.emit()

    def rename(self, title: str) -> bool:
        """Give the open chat a title of its own; False when there is no chat or no title."""
        chat = self.chat
        title = " ".join(title.split())
        if chat is None or not title or title == chat.title:
            return False
        renamed = replace(chat, title=title)
        self.chat = renamed
        if self.store is not None and chat.id:
            self.chat = self._guard(lambda store: store.update_chat(renamed)) or renamed
        self.chat_saved.emit()
        return True

    def set_drafts_folder(self, folder: Path) -> None:
        """Remember, with the open chat, the folder its new skills go in."""
        chat = self.chat
        if chat is None or chat.drafts_folder == folder:
            return
        changed = replace(chat, drafts_folder=folder)
        self.chat = changed
        if self.store is not None and chat.id:
            self.chat = self._guard(lambda store: store.update_chat(changed)) or changed
        self.chat_saved.emit()

    def _update_chat(self, setup: TurnSetup) -> None:
        chat = self.chat
        if chat is None:
            return
        changed = replace(chat, backend=setup.settings.backend, model=setup.settings.model,
                          skills=setup.chosen)
        if changed != chat:
            self.chat = changed
            if self.store is not None and chat.id:
                self.chat = self._guard(lambda store: store.update_chat(changed)) or changed
            self.chat_saved.emit()

    async def _run(self, setup: TurnSetup, conversation: list[Message]) -> None:
        self._answer = None
        self._cards = {}
        try:
            session = self._core_session(setup, conversation)
            messages = session.messages
            self._saved_upto = len(messages)
            # Closing the turn at once on Stop closes the HTTP stream and ends a running tool.
            events = cast(AsyncGenerator[Event, None], session.turn())
            async with contextlib.aclosing(events):
                async for event in events:
                    self._show(event, messages)
            self._finish_answer()
        except asyncio.CancelledError:
            # The window may already be gone when a turn is cancelled as the app closes.
            if isValid(self.transcript):
                self._stopped()
            raise

    def _core_session(self, setup: TurnSetup, conversation: list[Message]) -> CoreSession:
        key = (setup.settings, setup.skills, setup.overrides)
        session = self._core
        if session is not None and key == self._core_key:
            session.set_history(conversation)
            return session
        session = self.sessions.session(setup.settings, setup.skills, history=conversation,
                                        overrides=setup.overrides,
                                        choose_folder=setup.choose_folder)
        self._core, self._core_key = session, key
        if session.skipped:
            self._notice("Left out of the catalog, as they would not load: "
                         f"{', '.join(session.skipped)}.")
        return session

    # -- events -------------------------------------------------------------------------------------

    def _show(self, event: Event, messages: list[Message]) -> None:
        if isinstance(event, TextDelta):
            self._answer_item().append_text(event.text)
        elif isinstance(event, ThinkingDelta):
            self._answer_item().append_thinking(event.text)
        elif isinstance(event, ChatNotice):
            self._notice(event.message)
        elif isinstance(event, Error):
            self._finish_answer()
            self.transcript.add_notice(event.message, "error")
            self._save(StoredMessage("error", event.message))
        elif isinstance(event, ToolCallRequested):
            self._save_agent_messages(messages)
            self._cards[event.call_id] = self.transcript.add_card(record_for(event))
        elif isinstance(event, Done):
            self._save_agent_messages(messages)
            answers = self.transcript.answers()
            if event.unverified and event.text and answers:
                # This turn's answer: a notice after it may have closed it already.
                answers[-1].mark_unverified(event.unverified)
            if event.model:
                # Shown, not saved: which model answered matters while trying skills.
                self.transcript.add_notice(event.summary(), "done")
        else:
            self._show_tool_event(event)

    def _show_tool_event(self, event: Event) -> None:
        card = self._cards.get(getattr(event, "call_id", ""))
        if card is None:
            return
        update_record(card.record, event)
        if isinstance(event, ToolOutput):
            card.append_output(event.text)
            return
        card.show_record()
        if isinstance(event, ToolFinished):
            self._save(StoredMessage("tool", record=card.record))

    def _answer_item(self) -> AssistantItem:
        if self._answer is None:
            self._answer = self.transcript.add_assistant()
        return self._answer

    def _finish_answer(self) -> None:
        if self._answer is not None:
            self._answer.finish()
            self._answer = None

    def _notice(self, message: str) -> None:
        self._finish_answer()
        self.transcript.add_notice(message)
        self._save(StoredMessage("notice", message))

    def _save_agent_messages(self, messages: Sequence[Message]) -> None:
        """Save the answers the agent added to the conversation (tool results are saved with
        their cards); the answer shown becomes the one the model really gave."""
        for message in messages[self._saved_upto:]:
            if message.role != "assistant":
                continue
            item = self._answer
            if item is not None:
                if item.text != message.content:
                    item.body.set_markdown(message.content)
                item.finish()
                item.body.setVisible(bool(message.content.strip()))
                item.setVisible(bool(message.content.strip() or item.thinking))
                self._answer = None
            self._save(StoredMessage("assistant", message.content, message.thinking,
                                     tuple(message.tool_calls)))
        self._saved_upto = len(messages)

    def _stopped(self) -> None:
        item = self._answer
        if item is not None:
            item.finish()
            self._answer = None
            if item.text or item.thinking:
                self._save(StoredMessage("assistant", item.text, item.thinking or None))
        for card in self._cards.values():
            if stop_record(card.record, STOPPED_RESULT):
                card.show_record()
                self._save(StoredMessage("tool", record=card.record))
        self.transcript.add_notice("Stopped.")
        self._save(StoredMessage("notice", "Stopped."))

    # -- saving -------------------------------------------------------------------------------------

    def _save(self, message: StoredMessage) -> None:
        chat = self.chat
        if chat is None:
            return
        if self.store is None or not chat.id:
            self.messages.append(replace(message, seq=len(self.messages) + 1))
            return
        saved = self._guard(lambda store: store.append(chat.id, message))
        self.messages.append(saved or replace(message, seq=len(self.messages) + 1))

    def _guard(self, action: Callable[[ChatStore], T]) -> T | None:
        """Run a store action; a failure is shown once in the chat instead of breaking the turn."""
        if self.store is None:
            return None
        try:
            return action(self.store)
        except ChatStoreError as exc:
            if not self._store_failed:
                self._store_failed = True
                self.transcript.add_notice(f"This chat is not being saved: {exc}", "error")
            return None

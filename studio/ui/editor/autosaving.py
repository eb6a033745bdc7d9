"""Keeping the text of every tab with unsaved changes in the recovery folder, so that a crash or a
kill loses nothing: written shortly after the typing stops, on a background thread. The list of
the tabs open goes with them, so recovery opens every tab that was open, not only the edited."""

from __future__ import annotations

import functools
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from studio.editing import (
    Kind,
    OpenTab,
    RecoveryRecord,
    RecoveryStore,
    RecoveryWriter,
    record_key,
    text_digest,
)
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.file_tab import FileTab
from studio.ui.status_messages import Feedback

# Quiet time after the last edit before its text is kept: never a write per keystroke.
RECOVERY_DELAY_MS = 1000
# Someone typing without a pause still gets a copy this often.
MAX_WAIT_SECONDS = 10.0

Tab = SkillEditorTab | FileTab


class Unsaved(Protocol):
    """Text the user changed that is not in its file yet, besides an editor tab's (an eval file
    the Evals tab could not save): kept and restored as a plain file's."""

    @property
    def path(self) -> Path: ...

    @property
    def dirty(self) -> bool: ...

    @property
    def disk_text(self) -> str: ...

    def text(self) -> str: ...


class Autosaver(QObject):
    """Keeps the dirty tabs' texts (and whatever else `add_source` names) in this process's
    recovery session, and deletes the copy of a tab that is saved, discarded or closed.

    Attributes:
        store: the recovery folder.

    Signals:
        write_failed: (str) a copy could not be written (said once until one is written again).
    """

    write_failed = Signal(str)
    _write_done = Signal(str, str)

    def __init__(self, store: RecoveryStore, tabs: Callable[[], Sequence[Tab]],
                 feedback: Feedback, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._writer = RecoveryWriter(store.session)
        self._tabs = tabs
        self._feedback = feedback
        self._sources: list[Callable[[], Sequence[Unsaved]]] = []
        # What is on disk for each tab: its record's key and the text written there.
        self._written: dict[Tab | Unsaved, tuple[str, str]] = {}
        self._draft_ids: dict[Tab, str] = {}
        # The tabs edited since their text was last kept: only theirs is read again.
        self._edited: set[Tab] = set()
        self._pending_since: float | None = None
        self._failing = False
        self._stopped = False
        self._open_tabs: list[OpenTab] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RECOVERY_DELAY_MS)
        self._timer.timeout.connect(self.autosave_now)
        self._write_done.connect(self._on_write_done)

    def add_source(self, source: Callable[[], Sequence[Unsaved]]) -> None:
        """Keep what `source` lists too (call `schedule` when it changes)."""
        self._sources.append(source)

    def track(self, tab: Tab) -> None:
        """Follow a new tab's edits (a draft has unsaved changes before any edit)."""
        tab.document.contentsChanged.connect(lambda which=tab: self._on_tab_edited(which))
        tab.document.modificationChanged.connect(self.schedule)
        # Scheduled even when clean: the list of the tabs open changed.
        self.schedule()

    def _on_tab_edited(self, tab: Tab) -> None:
        self._edited.add(tab)
        self.schedule()

    def schedule(self) -> None:
        """Keep the texts once edits have stopped for a moment (or have gone on for long)."""
        now = time.monotonic()
        if self._pending_since is None:
            self._pending_since = now
        if now - self._pending_since >= MAX_WAIT_SECONDS:
            self._timer.start(0)
        else:
            self._timer.start(RECOVERY_DELAY_MS)

    def stop(self) -> None:
        """Finish the writes asked for and let the session go (its copies stay for next time)."""
        self._timer.stop()
        if not self._stopped:
            self._stopped = True
            self._writer.close()

    def flush(self) -> bool:
        """Keep every dirty tab's text now, and wait until it is written; False if it could not
        be."""
        self.autosave_now()
        return self._writer.wait()

    def autosave_now(self) -> None:
        self._timer.stop()
        self._pending_since = None
        if self._stopped:
            return
        edited, self._edited = self._edited, set()
        open_tabs = [OpenTab("file", tab.path) if isinstance(tab, FileTab)
                     else OpenTab("skill", tab.directory) for tab in self._tabs()
                     if not (isinstance(tab, SkillEditorTab) and tab.doc.untitled)]
        if open_tabs != self._open_tabs:
            self._open_tabs = open_tabs
            self._writer.open_tabs(open_tabs)
        tabs: list[Tab | Unsaved] = [*self._tabs()]
        for source in self._sources:
            tabs += source()
        for gone in [tab for tab in self._written if tab not in tabs]:
            self._discard(gone)
        for tab in tabs:
            if not tab.dirty:
                self._discard(tab)
                continue
            kind, identity = self._identity(tab)
            key = record_key(kind, identity)
            written = self._written.get(tab)
            if (written is not None and written[0] == key and tab not in edited
                    and isinstance(tab, SkillEditorTab | FileTab)):
                continue
            text = tab.text()
            if written == (key, text):
                continue
            if written is not None and written[0] != key:
                self._discard(tab)
            record = RecoveryRecord(
                kind, tab.path, text, time.time(),
                None if kind == "draft" else text_digest(tab.disk_text),
                tab.doc.skill.name or tab.directory.name if isinstance(tab, SkillEditorTab) else "")
            self._written[tab] = (key, text)
            self._writer.write(key, record).add_done_callback(
                functools.partial(self._report, key=key, name=tab.path.name))

    def forget(self, tab: Tab | Unsaved) -> None:
        """The tab was saved, discarded or closed: its copy goes (and is made again should it
        still have unsaved changes, as after a rename)."""
        self._discard(tab)
        self.schedule()

    def _identity(self, tab: Tab | Unsaved) -> tuple[Kind, str]:
        if isinstance(tab, SkillEditorTab):
            if tab.doc.untitled:
                # A draft's placeholder path is this process's: its copy is named by the tab.
                return "draft", self._draft_ids.setdefault(tab, uuid.uuid4().hex)
            return "skill", str(tab.path)
        return "file", str(tab.path)

    def _discard(self, tab: Tab | Unsaved) -> None:
        written = self._written.pop(tab, None)
        if written is not None:
            self._writer.discard(written[0])

    def _report(self, future: Future[None], *, key: str, name: str) -> None:
        """Runs on the writer's thread: only a signal crosses back to the window's."""
        error = future.exception()
        self._write_done.emit(key, "" if error is None else f"{name}: {error}")

    def _on_write_done(self, key: str, error: str) -> None:
        if not error:
            self._failing = False
            return
        # Not kept after all: the next edit tries again.
        for tab in [tab for tab, (written, _text) in self._written.items() if written == key]:
            del self._written[tab]
        if not self._failing:
            self._failing = True
            message = (f"Unsaved changes cannot be kept for recovery in {self.store.root} "
                       f"({error}); a crash now would lose them. Save often, or make that folder "
                       "writable.")
            self._feedback.status(message, 20000)
            self.write_failed.emit(message)

"""Keeping the text of every dirty tab beside the settings, so a crash loses nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from studio.editing.autosave import AutosaveStore
from studio.ui.controllers.feedback import Feedback
from studio.ui.widgets.editor_tab import SkillEditorTab
from studio.ui.widgets.file_tab import FileTab

AUTOSAVE_INTERVAL_MS = 4000

Tab = SkillEditorTab | FileTab


class Autosaver(QObject):
    """Writes the dirty tabs' texts every few seconds and forgets those of clean tabs.

    Attributes:
        store: where the autosaves are kept.
    """

    def __init__(self, store: AutosaveStore, tabs: Callable[[], Sequence[Tab]],
                 feedback: Feedback, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._tabs = tabs
        self._feedback = feedback
        self._written: dict[Path, str] = {}
        self._timer = QTimer(self)
        self._timer.setInterval(AUTOSAVE_INTERVAL_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _on_timer_timeout(self) -> None:
        self.autosave_now()

    def autosave_now(self) -> None:
        for tab in self._tabs():
            if isinstance(tab, SkillEditorTab) and tab.doc.untitled:
                # Its placeholder path could not be opened again after a crash.
                continue
            path = tab.path
            if not tab.dirty:
                if self._written.pop(path, None) is not None:
                    self.store.discard(path)
                continue
            text = tab.text()
            if self._written.get(path) == text:
                continue
            try:
                self.store.write(path, text, "skill" if isinstance(tab, SkillEditorTab) else "file")
            except OSError as exc:
                self._feedback.status(
                    f"Could not keep a backup of unsaved changes to {path.name}: {exc}", 10000)
                continue
            self._written[path] = text

    def forget(self, path: Path) -> None:
        self._written.pop(path, None)
        self.store.discard(path)

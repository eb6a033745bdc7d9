"""Follows the open files on disk: a file another program changed is reloaded in its tab (after
asking, when the tab has unsaved changes), and one it deleted is marked unsaved."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject

from studio.ui import asyncqt, confirm
from studio.ui.editor.autosaving import Autosaver
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.tabs import EditorTabs
from studio.ui.status_messages import Feedback
from studio.ui.tasks import TaskSet
from studio.ui.watcher import FileWatcher


class DiskChanges(QObject):
    """Reloads the tabs whose files the watcher saw change."""

    def __init__(self, editors: EditorTabs, watcher: FileWatcher, autosaver: Autosaver,
                 feedback: Feedback, tasks: TaskSet, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editors = editors
        self._autosaver = autosaver
        self._feedback = feedback
        self._tasks = tasks
        watcher.file_changed.connect(self._on_watcher_file_changed)

    def _on_watcher_file_changed(self, path: Path) -> None:
        self._tasks.spawn(self.file_changed_on_disk(path))

    async def file_changed_on_disk(self, path: Path) -> None:
        tab = self._editors.tab_for_path(path)
        if tab is None:
            return
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            tab.document.setModified(True)
            self._feedback.status(f"{path} was deleted or moved by another program; save "
                                  "(Ctrl+S) to write it again.", 15000)
            return
        except OSError:
            return
        disk = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        if disk == tab.disk_text:
            return
        if tab.dirty and not await asyncqt.confirmed(
                confirm.changed_on_disk(self._feedback.parent, path)):
            tab.disk_text = disk
            return
        tab.reload(data.decode("utf-8", errors="replace"))
        if isinstance(tab, SkillEditorTab):
            self._editors.show_in_library(tab)
        self._autosaver.forget(tab)
        self._editors.update_tab_title(tab)
        self._feedback.status(f"Reloaded {path.name}: another program changed it.")

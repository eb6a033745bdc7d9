"""Sync and Check in the library's menu for a root with a `skills-lock.json`: the same core as
`studio sync` and `studio sync --check`, run in a worker thread, with the outcome shown in a
dialog that does not wait. Sync asks first when it would discard edits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.skills.install import lockfile, locksync
from studio.textshow import shown
from studio.ui import asyncqt, confirm
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.roots import LibraryRoots
from studio.ui.status_messages import Feedback
from studio.ui.tasks import TaskSet

T = TypeVar("T")


class LockReportDialog(QDialog):
    """What a check found or a sync did, line by line; closes with Close.

    Attributes:
        summary: one sentence. details: the lines, read-only.
    """

    def __init__(self, title: str, summary: str, lines: list[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumSize(560, 320)
        self.summary = QLabel(summary)
        self.summary.setWordWrap(True)
        # A lock file is a project's: its names and reasons are shown, never obeyed.
        self.details = QPlainTextEdit(shown("\n".join(lines)))
        self.details.setReadOnly(True)
        self.details.setAccessibleName("Each skill and what differs")
        buttons = QDialogButtonBox()
        # A button of our own: the standard Close gave a screen reader no name (offscreen).
        buttons.addButton("Close", QDialogButtonBox.ButtonRole.RejectRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)


class LockSyncs(QObject):
    """Sync and Check for a library root, as the library panel's menu asks (see the module
    docstring)."""

    def __init__(self, panel: LibraryPanel, roots: LibraryRoots, feedback: Feedback,
                 tasks: TaskSet, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._roots = roots
        self._tasks = tasks
        panel.sync_requested.connect(self._on_panel_sync_requested)
        panel.check_requested.connect(self._on_panel_check_requested)
        self._feedback = feedback
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="lock-sync")
        self.last_dialog: LockReportDialog | None = None  # shown last (tests read it)

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, work)

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)

    def _show(self, title: str, summary: str, lines: list[str]) -> LockReportDialog:
        dialog = LockReportDialog(title, summary, lines, self._feedback.parent)
        self.last_dialog = dialog
        dialog.open()
        return dialog

    async def check(self, folder: Path) -> bool | None:
        """Check the skills of `folder` against its lock file, changing nothing; whether all
        match (None when the lock file cannot be read)."""
        lock = lockfile.lock_path(folder)
        self._feedback.status(f"Checking {folder} against {lock.name}…")
        try:
            found = await self._in_worker(lambda: locksync.check(folder))
        except lockfile.LockError as exc:
            self._feedback.tell("Check", f"{exc}.")
            return None
        bad = [state.record.name for state in found if not state.ok]
        if not found:
            summary = f"{lock} records no skills."
        elif not bad:
            summary = f"All {len(found)} skills match {lock.name}."
        else:
            summary = (f"{len(bad)} of {len(found)} skills differ from {lock.name}: "
                       f"{', '.join(bad)}. Sync puts back the locked files.")
        self._feedback.status(summary)
        self._show("Check Against skills-lock.json", summary,
                   [line for state in found for line in state.describe()])
        return not bad

    async def sync(self, folder: Path) -> bool | None:
        """Restore the skills of `folder` that differ from its lock file, once the user agrees
        to lose what would be discarded; whether all were restored (None: nothing was done)."""
        lock = lockfile.lock_path(folder)
        try:
            found = await self._in_worker(lambda: locksync.check(folder))
        except lockfile.LockError as exc:
            self._feedback.tell("Sync", f"{exc}. Nothing was changed.")
            return None
        edited = [line for state in found
                  if state.folder is not None and not state.ok and state.folder.exists()
                  for line in state.describe()]
        if edited and not await asyncqt.confirmed(
                confirm.sync_discards(self._feedback.parent, shown("\n".join(edited)))):
            self._feedback.status("Not synced; nothing was changed.")
            return None
        self._feedback.status(f"Syncing {folder} with {lock.name}…")
        try:
            report = await self._in_worker(lambda: locksync.restore(folder))
        except lockfile.LockError as exc:
            self._feedback.tell("Sync", f"{exc}. Nothing was changed.")
            return None
        if report.restored:
            self._roots.rescan()
        count = len(report.restored)
        summary = f"Restored {count} skill{'s' * (count != 1)} as {lock.name} records them."
        if report.failed:
            summary += (f" {len(report.failed)} could not be restored; see why below, fix it "
                        "and sync again.")
        self._feedback.status(summary)
        self._show("Sync with skills-lock.json", summary,
                   report.describe() + [f"as locked: {name}" for name in report.unchanged])
        return report.ok

    def _on_panel_check_requested(self, folder: Path) -> None:
        self._tasks.spawn(self.check(folder))

    def _on_panel_sync_requested(self, folder: Path) -> None:
        self._tasks.spawn(self.sync(folder))

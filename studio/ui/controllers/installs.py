"""Installing skills from a URL in the window: ask for the URL, download and check it in a worker
thread (progress in the status bar), show what it holds, write it only when the user agrees."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog

from studio.skills.collection import Library
from studio.skills.install import InstallError, commit_install, prepare_install
from studio.ui import asyncqt
from studio.ui.controllers.feedback import Feedback
from studio.ui.controllers.roots import LibraryRoots
from studio.ui.dialogs.install_url import InstallPlanDialog, InstallUrlDialog


class UrlInstalls(QObject):
    """File ▸ Install from URL.

    Signals:
        downloaded: (received, total or -1) bytes; emitted from the worker thread.
    """

    downloaded = Signal(int, int)

    def __init__(self, library: Library, roots: LibraryRoots, feedback: Feedback,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._roots = roots
        self._feedback = feedback
        self.downloaded.connect(self._on_downloaded)

    def _on_downloaded(self, received: int, total: int) -> None:
        of = f" of {total / 1e6:.1f} MB" if total >= 0 else " MB"
        self._feedback.status(f"Downloading skills: {received / 1e6:.1f}{of}…")

    def _folders(self) -> list[Path]:
        return [state.path for state in self._library.roots() if not state.root.read_only]

    def _progress(self, received: int, total: int | None) -> None:
        self.downloaded.emit(received, -1 if total is None else total)

    async def install_from_url(self) -> bool:
        """Ask, check, show, install. True when skills were installed."""
        parent = self._feedback.parent
        ask_url = InstallUrlDialog(self._folders(), parent)
        try:
            if await asyncqt.ask(ask_url) != QDialog.DialogCode.Accepted:
                return False
            url, folder = ask_url.url(), ask_url.folder()
        finally:
            ask_url.deleteLater()
        try:
            plan = await asyncio.to_thread(prepare_install, url, folder, progress=self._progress)
        except InstallError as exc:
            self._feedback.tell("Install from URL", f"{exc}. Nothing was written.")
            return False
        try:
            shown = InstallPlanDialog(plan, parent)
            try:
                if await asyncqt.ask(shown) != QDialog.DialogCode.Accepted:
                    self._feedback.status("Not installed; nothing was written.")
                    return False
            finally:
                shown.deleteLater()
            await asyncio.to_thread(commit_install, plan)
        except InstallError as exc:
            self._feedback.tell("Install from URL", str(exc))
            return False
        finally:
            await asyncio.to_thread(plan.discard)
        count = len(plan.skills)
        self._feedback.status(f"Installed {count} skill{'s' * (count != 1)} into {folder}.")
        if self._library.root(folder) is not None:
            self._roots.rescan()
        else:
            self._roots.add_root(folder)
        return True

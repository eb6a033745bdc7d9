"""Installing skills from a URL in the window: ask for the URL, download and check it in a worker
thread (progress in the status bar), show what it holds, write it only when the user agrees.

The work runs in a plain Python thread and its progress reaches the GUI thread through the event
loop (see `controllers.search` for why not qasync's executor or a Qt signal)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog

from studio.skills.collection import Library
from studio.skills.install import InstallError, commit_install, prepare_install
from studio.ui import asyncqt
from studio.ui.controllers.feedback import Feedback
from studio.ui.controllers.roots import LibraryRoots
from studio.ui.dialogs.install_url import InstallPlanDialog, InstallUrlDialog

T = TypeVar("T")


class UrlInstalls(QObject):
    """File ▸ Install from URL."""

    def __init__(self, library: Library, roots: LibraryRoots, feedback: Feedback,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._roots = roots
        self._feedback = feedback
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="install-from-url")
        self._downloading = False

    def _show_download(self, received: int, total: int | None) -> None:
        # A report that arrives once the download is over would stand in for its outcome.
        if not self._downloading:
            return
        of = f" of {total / 1e6:.1f} MB" if total else " MB"
        self._feedback.status(f"Downloading skills: {received / 1e6:.1f}{of}…")

    def _folders(self) -> list[Path]:
        return [state.path for state in self._library.roots() if not state.root.read_only]

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, work)

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)

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
        loop = asyncio.get_running_loop()

        def progress(received: int, total: int | None) -> None:
            loop.call_soon_threadsafe(self._show_download, received, total)

        self._downloading = True
        try:
            plan = await self._in_worker(lambda: prepare_install(url, folder, progress=progress))
        except InstallError as exc:
            self._feedback.tell("Install from URL", f"{exc}. Nothing was written.")
            return False
        finally:
            self._downloading = False
        self._feedback.status(f"Downloaded {url}; see what it holds before anything is written.")
        try:
            shown = InstallPlanDialog(plan, parent)
            try:
                if await asyncqt.ask(shown) != QDialog.DialogCode.Accepted:
                    self._feedback.status("Not installed; nothing was written.")
                    return False
            finally:
                shown.deleteLater()
            await self._in_worker(lambda: commit_install(plan))
        except InstallError as exc:
            self._feedback.tell("Install from URL", str(exc))
            return False
        finally:
            await self._in_worker(plan.discard)
        count = len(plan.skills)
        self._feedback.status(f"Installed {count} skill{'s' * (count != 1)} into {folder}.", 30000)
        if self._library.root(folder) is not None:
            self._roots.rescan()
        else:
            self._roots.add_root(folder)
        return True

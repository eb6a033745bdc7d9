"""Installing skills in the window: ask for the source (a git repository, a folder or an archive
URL) and the clients, fetch and check it in a worker thread (progress in the status bar), show
what it holds, write it only when the user agrees; and update or remove an installed skill from
the library's context menu.

The work runs in a plain Python thread and its progress reaches the GUI thread through the event
loop (see `controllers.search` for why not qasync's executor or a Qt signal)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog

from studio.skills.install import (
    InstallError,
    InstallPlan,
    commit_install,
    installed,
    lockfile,
    placement,
    prepare_source,
)
from studio.skills.library import Library
from studio.skills.scan import links_to
from studio.ui import asyncqt, confirm
from studio.ui.library.install_url import InstallPlanDialog, InstallUrlDialog
from studio.ui.library.roots import LibraryRoots
from studio.ui.status_messages import Feedback

T = TypeVar("T")


class UrlInstalls(QObject):
    """File ▸ Install Skills, and Update and Remove in the library's context menu."""

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
        """Ask, fetch, check, show, install. True when skills were installed."""
        parent = self._feedback.parent
        ask_url = InstallUrlDialog(self._folders(), parent)
        try:
            if await asyncqt.ask(ask_url) != QDialog.DialogCode.Accepted:
                return False
            source, folder = ask_url.url(), ask_url.folder()
            clients, copies = ask_url.clients(), ask_url.copies()
        finally:
            ask_url.deleteLater()
        return await self._install(source, folder, clients, copies, "Install")

    async def _install(self, source: str, folder: Path, clients: list[str], copies: bool,
                       title: str, known: dict[str, str] | None = None) -> bool:
        loop = asyncio.get_running_loop()

        def progress(received: int, total: int | None) -> None:
            loop.call_soon_threadsafe(self._show_download, received, total)

        self._feedback.status(f"Fetching {source}…")
        self._downloading = True
        try:
            plan = await self._in_worker(lambda: prepare_source(source, folder, progress=progress))
        except InstallError as exc:
            self._feedback.tell(title, f"{exc}. Nothing was written.")
            return False
        finally:
            self._downloading = False
        self._feedback.status(f"Fetched {source}; see what it holds before anything is written.")
        try:
            if known is not None:
                plan.skills = [skill for skill in plan.skills if skill.folder in known]
                if await self._in_worker(lambda: installed.unchanged(plan, known)):
                    self._feedback.status(f"{', '.join(sorted(known))}: up to date.")
                    return False
            where = installed.project_of(folder)
            places = placement.client_folders(clients, *where) if where is not None else []
            blocked = [path for skill in plan.skills
                       for path in placement.blocking(skill.folder, places, folder)]
            if blocked:
                self._feedback.tell(title, "These client folders already hold a skill of the same "
                                    "name that is not a link to this install: "
                                    + ", ".join(map(str, blocked)) + ". Move them away, then "
                                    "install again. Nothing was written.")
                return False
            shown = InstallPlanDialog(plan, parent=self._feedback.parent)
            try:
                if await asyncqt.ask(shown) != QDialog.DialogCode.Accepted:
                    self._feedback.status("Not installed; nothing was written.")
                    return False
            finally:
                shown.deleteLater()
            extra: dict[str, Any] = {}
            if clients:
                extra = {"clients": clients, "mode": "copy" if copies else "link"}
            await self._in_worker(lambda: self._commit(plan, extra, places, copies))
        except (InstallError, OSError) as exc:
            self._feedback.tell(title, str(exc))
            return False
        finally:
            await self._in_worker(plan.discard)
        count = len(plan.skills)
        linked = f", linked for {', '.join(clients)}" if clients else ""
        self._feedback.status(f"Installed {count} skill{'s' * (count != 1)} into {folder}{linked}.",
                              30000)
        if self._library.root(folder) is not None or self._library.deepest_root(folder):
            self._roots.rescan()
        else:
            self._roots.add_root(folder)
        return True

    @staticmethod
    def _commit(plan: InstallPlan, extra: dict[str, Any], places: list[Path],
                copies: bool) -> None:
        commit_install(plan, studio=extra)
        for skill in plan.skills:
            placement.place(skill.folder, plan.into, places, copies)

    async def update_skill(self, directory: Path) -> bool:
        """Fetch an installed skill's source again and replace it when its files changed."""
        record = installed.record_for(directory)
        if record is None:
            self._feedback.tell("Update", f"{directory.name} was not installed from a source "
                                "recorded in skills-lock.json, so there is nothing to update from.")
            return False
        pinned = record.pinned_note()
        if pinned is not None:
            self._feedback.tell("Update", f"{pinned}.")
            return False
        try:
            source = installed.fetchable(record)
        except InstallError as exc:
            self._feedback.tell("Update", f"{exc}. Nothing was fetched.")
            return False
        clients = record.studio.get("clients")
        return await self._install(
            source, directory.parent,
            [c for c in clients if isinstance(c, str)] if isinstance(clients, list) else [],
            record.studio.get("mode") == "copy", "Update",
            known={record.name: record.computed_hash})

    async def remove_skill(self, directory: Path) -> bool:
        """Remove an installed skill, its client links and its lock entry, once confirmed."""
        if installed.record_for(directory) is None:
            self._feedback.tell("Remove", f"{directory.name} is not recorded in skills-lock.json.")
            return False
        linked = await self._in_worker(lambda: links_to(directory))
        if not await asyncqt.confirmed(
                confirm.remove_installed(self._feedback.parent, directory, linked)):
            return False
        where = installed.project_of(directory.parent)
        try:
            await self._in_worker(lambda: installed.remove_installed(
                directory.parent, directory.name, where[0] if where else None,
                where[1] if where else False))
        except (lockfile.LockError, OSError) as exc:
            self._feedback.tell("Remove", f"{directory.name} was not removed: {exc}.")
            return False
        self._library.remove_skill(directory)
        self._feedback.status(f"Removed {directory.name}, its client links and its lock entry.")
        return True

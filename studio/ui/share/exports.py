"""Skill ▸ Export: the skill in front of the user packaged as `studio pack` does it, into a folder
the user picks. The packing (validation, read-back, temp-then-rename) is the core's; this only
asks where and says what was written."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QWidget

from studio.skills.install import pack, pack_package
from studio.ui import asyncqt
from studio.ui.status_messages import Feedback
from studio.ui.tasks import TaskSet

KINDS = {
    "skill": ("As .skill &Archive…", "Write NAME.skill (for claude.ai and skill-creator) into a folder"),
    "plugin": ("As Claude Code &Plugin…",
               "Write a Claude Code plugin holding the skill into an empty folder"),
    "index": ("To a Site &Index…", "Add the skill to DIR/.well-known/agent-skills/ (index.json and files)"),
}


class SkillExports(QObject):
    """The Export submenu and what its actions do.

    Attributes:
        menu: Skill ▸ Export, for the window to place.
    """

    def __init__(self, feedback: Feedback, tasks: TaskSet,
                 target_directory: Callable[[], Path | None], parent: QWidget) -> None:
        super().__init__(parent)
        self._feedback = feedback
        self._tasks = tasks
        self._target_directory = target_directory
        # A worker of its own (qasync's default executor runs QThreads that outlive the window).
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="skill-export")
        self.menu = QMenu("E&xport", parent)
        self.menu.setToolTipsVisible(True)
        self.actions: dict[str, QAction] = {}
        for kind, (text, tip) in KINDS.items():
            action = self.menu.addAction(text)
            action.setStatusTip(tip)
            action.setToolTip(tip)
            action.triggered.connect(lambda _checked=False, k=kind: self._tasks.spawn(self.export(k)))
            self.actions[kind] = action

    async def export(self, kind: str, into: Path | None = None) -> Path | None:
        """Package the current skill as `kind` into `into` (asked for when None). Returns what was
        written, or None when there was nothing to do or it failed (the user is told why)."""
        directory = self._target_directory()
        if directory is None:
            self._feedback.status("Select a skill in the library or open one to export it.")
            return None
        if into is None:
            into = await self._ask_folder(kind, directory)
            if into is None:
                return None
        try:
            written = await asyncio.get_running_loop().run_in_executor(
                self._worker, _PACKERS[kind], directory, into)
        except pack.PackError as exc:
            self._feedback.tell("Export failed", f"{directory.name} was not exported: {exc}")
            return None
        except OSError as exc:
            self._feedback.tell("Export failed", f"Writing into {into} failed: {exc.strerror or exc} "
                                f"({exc.filename or into}). Nothing was left half-written.")
            return None
        self._feedback.status(f"Exported {directory.name}: {written}", 15000)
        return written

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)

    async def _ask_folder(self, kind: str, directory: Path) -> Path | None:
        title = {"skill": "Folder for the .skill archive", "plugin": "Empty folder for the plugin",
                 "index": "The site's folder (its root, where .well-known goes)"}[kind]
        dialog = QFileDialog(self._feedback.parent, title, str(directory.parent))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        return Path(dialog.selectedFiles()[0])


def _plugin(directory: Path, into: Path) -> Path:
    return pack_package("plugin", [directory], into)[0]


def _index(directory: Path, into: Path) -> Path:
    return pack_package("index", [directory], into)[0]


_PACKERS: dict[str, Callable[[Path, Path], Path]] = {
    "skill": pack.pack_skill, "plugin": _plugin, "index": _index,
}

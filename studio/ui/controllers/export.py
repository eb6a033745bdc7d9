"""Skill ▸ Export…: the skill the user means, packed by the core (`studio.skills.pack`) away
from the window's thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PySide6.QtWidgets import QDialog

from studio.skills.pack import Packed, PackError, pack_index, pack_plugin, pack_skill
from studio.ui.asyncqt import ask
from studio.ui.controllers.feedback import Feedback
from studio.ui.dialogs.export import ExportDialog

# Plain Python threads, not qasync's QThread executor: its threads outlive the loop that made them.
_EXPORTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="export-skill")


def export(kind: str, directory: Path, destination: Path, force: bool) -> Packed:
    if kind == "plugin":
        return pack_plugin([directory], destination, force=force)
    if kind == "index":
        return pack_index([directory], destination, force=force)
    return pack_skill(directory, destination, force=force)


class SkillExport:
    """Export the skill `target()` names (the library's selection or the open tab's)."""

    def __init__(self, target: Callable[[], Path | None], feedback: Feedback) -> None:
        self._target = target
        self._feedback = feedback
        self.dialog: ExportDialog | None = None

    async def export_skill(self) -> Packed | None:
        directory = self._target()
        if directory is None:
            self._feedback.status("Select a skill in the library, or open one, to export it.")
            return None
        self.dialog = ExportDialog(directory.name, directory.parent, self._feedback.parent)
        try:
            if await ask(self.dialog) != QDialog.DialogCode.Accepted:
                return None
            kind, destination = self.dialog.kind, self.dialog.destination
            force = self.dialog.force_box.isChecked()
        finally:
            self.dialog.deleteLater()
            self.dialog = None
        try:
            packed = await asyncio.wrap_future(
                _EXPORTER.submit(export, kind, directory, destination, force))
        except (PackError, OSError) as exc:
            self._feedback.tell("Not exported", f"{directory.name} was not exported: {exc}")
            return None
        self._feedback.status(f"Exported {directory.name} to {packed.path}", 12000)
        return packed

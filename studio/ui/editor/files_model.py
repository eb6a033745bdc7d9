"""The files of a skill (the core's `SkillFile`s) as a table: path, size, executable."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from studio.skills import SkillFile
from studio.ui.indexes import Index
from studio.ui.rows import RowsModel

FILE_ROLE = Qt.ItemDataRole.UserRole + 1


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / 1048576:.1f} MiB"


class FilesModel(RowsModel):
    COLUMNS = ("File", "Size", "Notes")

    def set_files(self, files: tuple[SkillFile, ...]) -> None:
        if files != self._rows:
            self.set_rows(files)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        file = self._rows[index.row()]
        if role == FILE_ROLE:
            return file
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if index.column() == 0:
            return str(file.path)
        if index.column() == 1:
            return human_size(file.size)
        notes = []
        if file.executable:
            notes.append("executable")
        if file.has_shebang is False and str(file.path).startswith("scripts/"):
            notes.append("no #! line")
        return ", ".join(notes)

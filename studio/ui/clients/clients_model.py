"""The Clients view's table: a Qt model over an effective catalog's rows (it adapts the core's
`Catalog`, it does not copy it)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from studio.skills.catalog import Catalog, Entry
from studio.textshow import shown

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("State", "Name", "Why", "Description shown", "SKILL.md")
# A state's colour says at a glance what the row means; the text says it in words too.
_COLOURS = {"loaded": "#2e7d32", "shadowed": "#b26a00", "disabled": "#6d6d6d",
            "not-loaded": "#c62828", "unknown": "#5c6bc0"}


class CatalogModel(QAbstractTableModel):
    """One row per skill the client would find, in the catalog's order."""

    def __init__(self, parent: object | None = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self._catalog: Catalog | None = None

    @property
    def catalog(self) -> Catalog | None:
        return self._catalog

    def set_catalog(self, catalog: Catalog | None) -> None:
        self.beginResetModel()
        self._catalog = catalog
        self.endResetModel()

    def entry(self, row: int) -> Entry | None:
        if self._catalog is None or not 0 <= row < len(self._catalog.entries):
            return None
        return self._catalog.entries[row]

    def row_of(self, skill_file: Path) -> int | None:
        """The row of the SKILL.md at `skill_file`, or None."""
        if self._catalog is None:
            return None
        wanted = skill_file.resolve()
        for row, entry in enumerate(self._catalog.entries):
            if entry.path.resolve() == wanted:
                return row
        return None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._catalog is None:
            return 0
        return len(self._catalog.entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        entry = self.entry(index.row())
        if entry is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            values = (entry.state, entry.name, entry.why, entry.description_shown,
                      str(entry.path))
            text = values[column]
            # Names, reasons and descriptions come from files: what they hold is shown, never obeyed.
            return shown(text if column != 3 else " ".join(text.split())[:300])
        if role == Qt.ItemDataRole.ToolTipRole and column in (2, 3, 4):
            return shown((entry.why, entry.description_shown, str(entry.path))[column - 2]) or None
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return QBrush(QColor(_COLOURS.get(entry.state, "#000000")))
        return None

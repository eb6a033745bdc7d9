"""The `metadata:` mapping of a skill as an editable key/value table."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    Qt,
    Signal,
)

from studio.ui.indexes import NO_PARENT, Index


def value_text(value: Any) -> str:
    """A frontmatter value as a field shows it (YAML's spelling of booleans, "" for none)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class MetadataModel(QAbstractTableModel):
    """Rows of (key, value) strings taken from the skill's metadata.

    Signals:
        items_edited: the user changed, added or removed a row; carries all rows.
    """

    items_edited = Signal(list)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._items: list[list[str]] = []
        self.read_only = False

    def items(self) -> list[tuple[str, str]]:
        return [(key, value) for key, value in self._items]

    def set_metadata(self, metadata: dict[str, Any]) -> None:
        """Show the skill's metadata; a no-op when it already shows exactly that."""
        items = [[str(key), value_text(value)] for key, value in metadata.items()]
        if items == self._items:
            return
        self.beginResetModel()
        self._items = items
        self.endResetModel()

    def add_row(self) -> QModelIndex:
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append([self._free_key(), ""])
        self.endInsertRows()
        self.items_edited.emit(self.items())
        return self.index(row, 0)

    def remove_row(self, row: int) -> None:
        if not 0 <= row < len(self._items):
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._items[row]
        self.endRemoveRows()
        self.items_edited.emit(self.items())

    def _free_key(self) -> str:
        keys = {key for key, _ in self._items}
        key, counter = "key", 1
        while key in keys:
            counter += 1
            key = f"key{counter}"
        return key

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = NO_PARENT) -> int:
        return 0 if parent.isValid() else 2

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ("Key", "Value")[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role not in (Qt.ItemDataRole.DisplayRole,
                                               Qt.ItemDataRole.EditRole):
            return None
        return self._items[index.row()][index.column()]

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if not self.read_only:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole or self.read_only:
            return False
        text = str(value)
        if self._items[index.row()][index.column()] == text:
            return False
        self._items[index.row()][index.column()] = text
        self.dataChanged.emit(index, index)
        self.items_edited.emit(self.items())
        return True

"""Help ▸ Keyboard Shortcuts: every shortcut the window defines, gathered from its actions (so a
new action with a shortcut is listed without anyone adding it here), filtered as you type."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def window_shortcuts(window: QWidget) -> list[tuple[str, str]]:
    """(what the action does, its shortcuts as the platform writes them) for each action of the
    window and its children that has a shortcut, sorted by the action's name."""
    found: dict[tuple[str, str], None] = {}
    for action in window.findChildren(QAction):
        keys = [key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()]
        keys = [key for key in keys if key]
        if not keys:
            continue
        name = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…")
        found[(name or action.toolTip(), ", ".join(keys))] = None
    return sorted(found, key=lambda row: row[0].casefold())


class ShortcutsDialog(QDialog):
    """The window's shortcuts in a table, with a box that filters by action or key."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setWindowTitle("Keyboard Shortcuts")
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter by action or key")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setAccessibleName("Filter shortcuts")
        rows = window_shortcuts(window)
        self._rows = rows
        self.table = QTableWidget(len(rows), 2)
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.setHorizontalHeaderLabels(["Action", "Shortcut"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents)
        for row, (name, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.filter_edit.textChanged.connect(self._on_filter_edit_text_changed)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(520, 560)

    def visible_rows(self) -> list[tuple[str, str]]:
        return [shortcut for row, shortcut in enumerate(self._rows) if not self.table.isRowHidden(row)]

    def _on_filter_edit_text_changed(self, text: str) -> None:
        wanted = text.strip().casefold()
        for row, (name, keys) in enumerate(self._rows):
            shown = not wanted or wanted in name.casefold() or wanted in keys.casefold()
            self.table.setRowHidden(row, not shown)


def show_shortcuts(window: QWidget) -> ShortcutsDialog:
    dialog = ShortcutsDialog(window)
    dialog.open()
    dialog.filter_edit.setFocus()
    return dialog

"""What the studio offers back after it was closed without saving: the unsaved texts it kept, each
with how its file is now, and the difference between the two for the one picked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.editing import DiskState, RecoveredEntry, Unreadable
from studio.ui.editor.diff_highlighter import DiffHighlighter
from studio.ui.fit import resize_within_screen

# `done()` codes besides Accepted (restore the ticked ones) and Rejected (ask again next time).
DISCARD = 2


def describe(entry: RecoveredEntry, state: DiskState) -> str:
    """One line saying what restoring `entry` does, given how its file is now."""
    record = entry.record
    if state is DiskState.NEVER_SAVED:
        return f"{record.name or 'A new skill'}: a draft never saved, kept {record.when}."
    where = f"{record.path.parent.name}/{record.path.name}"
    if state is DiskState.GONE:
        if record.kind == "skill":
            return (f"{where}, kept {record.when}: its folder is gone; it opens as a draft that "
                    "Save puts where you choose.")
        return f"{where}, kept {record.when}: the file is gone; saving writes it again."
    if state is DiskState.CHANGED:
        return (f"{where}, kept {record.when}: the file was changed on disk since; compare "
                "before saving, since saving replaces that change.")
    return f"{where}, kept {record.when}."


class RecoveryDialog(QDialog):
    """Restore the ticked texts, discard them all, or decide at the next start.

    Attributes:
        entries: what is offered, in the list's order.
        states: how each entry's file is now.
    """

    def __init__(self, entries: list[RecoveredEntry], unreadable: list[Unreadable],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryDialog")
        self.setWindowTitle("Restore unsaved changes")
        self.entries = entries
        self.states = [entry.disk_state() for entry in entries]
        intro = QLabel(
            "Skill Studio closed before these changes were saved. Restoring opens each ticked "
            "one as an unsaved tab, to compare, save or close; the unticked ones are deleted. "
            "Later keeps them all for the next start.")
        intro.setWordWrap(True)
        self.list = QListWidget()
        for entry, state in zip(entries, self.states, strict=True):
            item = QListWidgetItem(describe(entry, state))
            item.setToolTip(str(entry.record.path))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.list.addItem(item)
        self.compare = QPlainTextEdit()
        self.compare.setReadOnly(True)
        self.compare.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.compare.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._highlighter = DiffHighlighter(self.compare.document())
        self.problems = QLabel("\n".join(bad.message for bad in unreadable))
        self.problems.setWordWrap(True)
        self.problems.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems.setVisible(bool(unreadable))
        buttons = QDialogButtonBox()
        self.restore_button = buttons.addButton("Restore", QDialogButtonBox.ButtonRole.AcceptRole)
        self.discard_button = buttons.addButton("Discard All",
                                                QDialogButtonBox.ButtonRole.DestructiveRole)
        self.later_button = buttons.addButton("Later", QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.setDefault(True)
        self.restore_button.setEnabled(bool(entries))
        self.discard_button.setEnabled(bool(entries))
        self.restore_button.clicked.connect(self.accept)
        self.discard_button.clicked.connect(lambda: self.done(DISCARD))
        self.later_button.clicked.connect(self.reject)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.list)
        splitter.addWidget(self.compare)
        splitter.setSizes([120, 280])
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.problems)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(self._on_list_current_row_changed)
        self.list.setCurrentRow(0)
        resize_within_screen(self, 760, 520)

    def ticked(self) -> list[RecoveredEntry]:
        return [entry for row, entry in enumerate(self.entries)
                if self.list.item(row).checkState() == Qt.CheckState.Checked]

    def _on_list_current_row_changed(self, row: int) -> None:
        self.compare.setPlainText(self.entries[row].compare() if 0 <= row < len(self.entries)
                                  else "")

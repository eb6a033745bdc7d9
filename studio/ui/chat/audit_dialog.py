"""The audit log window (Tools ▸ Audit Log): every decision the policy made, every answer to an
approval and every run, newest first, with a filter."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.policy import AuditEntry, AuditError, AuditLog
from studio.ui.fit import resize_within_screen
from studio.ui.indexes import Index
from studio.ui.rows import RowsModel

COLUMNS = ("Time", "Event", "Outcome", "By", "Skill", "Command", "Exit", "Seconds")
SHOWN_ENTRIES = 2000


def outcome(entry: AuditEntry) -> str:
    """What happened, in a word or two: allow/ask/block, once/always/deny, or how a run ended."""
    if entry.event == "run":
        if entry.extra.get("cancelled"):
            return "stopped"
        if entry.extra.get("timed_out"):
            return "timed out"
        return "ran"
    if entry.event == "writes":
        return entry.writes_outcome()
    if entry.event == "approval":
        reason = entry.extra.get("reason")
        return str(entry.how or entry.decision or "") + (f": {reason}" if reason else "")
    return str(entry.decision or entry.how or "")


class AuditModel(RowsModel):
    """The last entries of an `AuditLog`, newest first; `refresh` reads the file again."""

    COLUMNS = COLUMNS

    def __init__(self, log: AuditLog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log = log
        self.problem: str | None = None

    def refresh(self) -> None:
        self.beginResetModel()
        try:
            self._rows = list(reversed(self.log.tail(SHOWN_ENTRIES)))
            self.problem = None
        except AuditError as exc:
            self._rows = []
            self.problem = str(exc)
        self.endResetModel()

    def entry_at(self, row: int) -> AuditEntry | None:
        entry: AuditEntry | None = self.row_at(row)
        return entry

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        entry = self.entry_at(index.row()) if index.isValid() else None
        if entry is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                entry.timestamp.replace("T", " ").split("+")[0],
                entry.event,
                outcome(entry),
                entry.approved_by or "",
                entry.skill or "",
                entry.command,
                "" if entry.exit_code is None else str(entry.exit_code),
                "" if entry.duration_s is None else f"{entry.duration_s:.2f}",
            )[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [entry.command, f"in {entry.cwd}", *entry.reasons]
            lines += [f"{kind}: {message}" for kind, message in entry.warnings]
            return "\n".join(lines)
        return None


class AuditDialog(QDialog):
    """Shows the audit log; the filter matches any column."""

    def __init__(self, log: AuditLog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Audit Log")
        resize_within_screen(self, 980, 480)
        self.model = AuditModel(log, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        intro = QLabel(f"Every decision, approval and run, newest first (the last "
                       f"{SHOWN_ENTRIES:,}), from {log.path}.")
        intro.setWordWrap(True)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter: a command, a skill, deny, block…")
        self.filter_edit.setClearButtonEnabled(True)
        self.status = QLabel()
        self.status.setObjectName("hint")
        self.status.setWordWrap(True)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        reload_button = QPushButton("Reload")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(reload_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        buttons.rejected.connect(self.reject)
        reload_button.clicked.connect(self.refresh)
        self.filter_edit.textChanged.connect(self._on_filter_edit_text_changed)
        self.refresh()

    def refresh(self) -> None:
        self.model.refresh()
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        count = self.model.rowCount()
        if self.model.problem:
            text = self.model.problem
        elif count == 0:
            text = "Nothing logged yet: entries appear when a skill's command is judged or run."
        else:
            text = f"{count:,} entries"
            if self.model.log.skipped:
                text += f"; {self.model.log.skipped} damaged lines were skipped"
        self.status.setText(text)

    def _on_filter_edit_text_changed(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)

"""The Approvals window (Tools ▸ Approvals): the commands the user chose to always allow, for this
session or remembered in grants.yaml, and a way to take each grant back."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.policy import Grant, Grants, GrantsError
from studio.ui.fit import resize_within_screen
from studio.ui.indexes import Index
from studio.ui.rows import RowsModel

COLUMNS = ("Command", "Folder", "Skill folder", "Kept", "Added")


class GrantsModel(RowsModel):
    """The grants of a `Grants` store as table rows; `refresh` reads the store again."""

    COLUMNS = COLUMNS

    def __init__(self, grants: Grants, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.grants = grants
        self.refresh()

    def refresh(self) -> None:
        self.set_rows(self.grants.all())

    def grant_at(self, row: int) -> Grant | None:
        grant: Grant | None = self.row_at(row)
        return grant

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        grant = self.grant_at(index.row()) if index.isValid() else None
        if grant is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return (grant.command, grant.folder, str(grant.workspace),
                    "remembered" if grant.remembered else "this session",
                    grant.added.replace("T", " ").split("+")[0])[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return grant.describe() + f" of {grant.workspace}"
        return None


class GrantsDialog(QDialog):
    """Lists the grants and revokes the selected ones."""

    def __init__(self, grants: Grants, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Approvals")
        resize_within_screen(self, 760, 360)
        self.grants = grants
        where = f" in {grants.path}" if grants.path is not None else ""
        intro = QLabel("Commands you chose to <b>always allow</b>. Grants for this session end "
                       f"when the studio closes; remembered ones are kept{where}. Revoke a grant "
                       "to be asked again.")
        intro.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("formNotice")
        self.problem.setWordWrap(True)
        self.model = GrantsModel(grants, self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setShowGrid(False)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.empty = QLabel("No grants yet: every command that needs approval is asked about.")
        self.empty.setObjectName("hint")
        self.revoke_button = QPushButton("Revoke")
        self.reload_button = QPushButton("Reload File")
        self.reload_button.setToolTip("Read grants.yaml again, after editing it by hand")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.revoke_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.reload_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.problem)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty)
        layout.addWidget(buttons)
        buttons.rejected.connect(self.reject)
        self.revoke_button.clicked.connect(self._on_revoke_button_clicked)
        self.reload_button.clicked.connect(self._on_reload_button_clicked)
        self.table.selectionModel().selectionChanged.connect(self._on_table_selection_changed)
        self._show_problem(grants.problem)
        self._update()

    def _show_problem(self, text: str | None) -> None:
        self.problem.setText(text or "")
        self.problem.setVisible(bool(text))

    def _update(self) -> None:
        self.empty.setVisible(self.model.rowCount() == 0)
        self.revoke_button.setEnabled(self.table.selectionModel().hasSelection())

    def refresh(self) -> None:
        self.model.refresh()
        self._update()

    def revoke_rows(self, rows: list[int]) -> None:
        problem = None
        for grant in [g for g in map(self.model.grant_at, rows) if g is not None]:
            try:
                self.grants.revoke(grant.key, grant.workspace)
            except GrantsError as exc:
                problem = f"{exc}. The grant still holds; fix the file, then try again."
        self._show_problem(problem)
        self.refresh()

    def _on_revoke_button_clicked(self) -> None:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        self.revoke_rows(rows)

    def _on_reload_button_clicked(self) -> None:
        self.grants.reload()
        self._show_problem(self.grants.problem)
        self.refresh()

    def _on_table_selection_changed(self, *_args: object) -> None:
        self._update()

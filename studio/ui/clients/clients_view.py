"""The Clients view: pick a client and a project, see every skill that client would find with its
state and why, the description as it shows it, and the listing against its budget. Focused on
one skill (from its tab), it first answers for that skill in every client.

The scans run in the controller's worker thread (studio.ui.clients.clients_controller); only the
latest request's answer is shown.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.skills.catalog import CLIENTS, Catalog, Entry
from studio.textshow import shown
from studio.ui.clients.clients_model import CatalogModel
from studio.ui.tasks import TaskSet

Scan = Callable[[str, Path | None], Awaitable[Catalog]]
Survey = Callable[[Path | None, Path], Awaitable[list[tuple[str, Entry | None]]]]


class ClientsView(QDialog):
    """The window's answer to "which clients load my skills, and why not this one?".

    Attributes:
        model: the table's rows (the catalog of the chosen client).
        focus: the SKILL.md the view answers for first, or None.
    """

    def __init__(self, scan: Scan, survey: Survey, tasks: TaskSet,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Clients: What Each Loads")
        self.setModal(False)
        self._scan, self._survey, self._tasks = scan, survey, tasks
        self._generation = 0
        self.focus: Path | None = None

        self.client = QComboBox()
        for key, title in CLIENTS.items():
            self.client.addItem(title, key)
        self.client.setToolTip("The client whose view of your skills to show")
        self.project = QLineEdit()
        self.project.setPlaceholderText("No project: the user's skills only")
        self.project.setToolTip("The project the client is started in")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._on_browse_clicked)
        self.refresh = QPushButton("Refresh")
        self.refresh.setToolTip("Look at the folders again")
        self.refresh.clicked.connect(self.rescan)
        top = QHBoxLayout()
        for text, field in (("&Client:", self.client), ("&Project:", self.project)):
            label = QLabel(text)
            label.setBuddy(field)
            field.setAccessibleName(text.replace("&", "").rstrip(":"))
            top.addWidget(label)
            top.addWidget(field, 1 if field is self.project else 0)
        top.addWidget(browse)
        top.addWidget(self.refresh)

        self.answer = QLabel()
        self.answer.setObjectName("banner")
        self.answer.setWordWrap(True)
        self.answer.setTextFormat(Qt.TextFormat.RichText)
        self.answer.setVisible(False)

        self.model = CatalogModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setAccessibleName("Skills the client would find")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(0, 90)
        self.table.setColumnWidth(1, 160)
        self.table.setColumnWidth(3, 220)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.budget = QLabel()
        self.budget.setWordWrap(True)
        self.notices = QLabel()
        self.notices.setWordWrap(True)
        self.notices.setVisible(False)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.answer)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.budget)
        layout.addWidget(self.notices)
        self.resize(980, 560)

        self.client.currentIndexChanged.connect(self._on_client_current_index_changed)
        self.project.editingFinished.connect(self.rescan)

    def chosen_client(self) -> str:
        return str(self.client.currentData())

    def chosen_project(self) -> Path | None:
        text = self.project.text().strip()
        return Path(text).expanduser() if text else None

    def show_for(self, project: Path | None, focus: Path | None = None,
                 client: str | None = None) -> None:
        """Show the view for `project`, answering for the SKILL.md `focus` first when given."""
        self.focus = focus
        self.project.setText(str(project) if project is not None else "")
        if client is not None and self.client.findData(client) >= 0:
            self.client.blockSignals(True)
            self.client.setCurrentIndex(self.client.findData(client))
            self.client.blockSignals(False)
        self.show()
        self.raise_()
        self.activateWindow()
        self.rescan()

    def rescan(self) -> None:
        """Scan again for the chosen client and project (and the focused skill's survey)."""
        self._generation += 1
        self._tasks.spawn(self._load(self._generation, self.chosen_client(),
                                     self.chosen_project()))

    async def _load(self, generation: int, client: str, project: Path | None) -> None:
        if project is not None and not project.is_dir():
            self.summary.setText(f"{shown(str(project))} is not a folder: choose a project "
                                 "folder, or clear the field for the user's skills only.")
            self.model.set_catalog(None)
            return
        self.summary.setText("Looking at the skills folders…")
        self.refresh.setEnabled(False)
        try:
            catalog = await self._scan(client, project)
            survey = await self._survey(project, self.focus) if self.focus is not None else None
        finally:
            if generation == self._generation:
                self.refresh.setEnabled(True)
        if generation != self._generation:
            return
        self._show(catalog, survey)

    def _show(self, catalog: Catalog, survey: list[tuple[str, Entry | None]] | None) -> None:
        self.model.set_catalog(catalog)
        self.summary.setText(
            f"{catalog.title} would find {len(catalog.entries)} skills: "
            f"{catalog.count('loaded')} loaded, {catalog.count('shadowed')} shadowed, "
            f"{catalog.count('disabled')} disabled, {catalog.count('not-loaded')} not loaded, "
            f"{catalog.count('unknown')} unknown (no source says).")
        budget = catalog.budget
        if budget.known:
            over = f" Past it: {shown(', '.join(budget.over))}." if budget.over else ""
            self.budget.setText(f"Listing: {budget.used:,} of {budget.limit:,} {budget.unit} "
                                f"({budget.basis}).{over}")
        else:
            self.budget.setText(f"Listing budget: {budget.source}.")
        self.notices.setText("\n".join(shown(notice) for notice in catalog.notices))
        self.notices.setVisible(bool(catalog.notices))
        self.answer.setVisible(survey is not None)
        if survey is not None:
            self.answer.setText(self._answer_text(survey))
        row = self.model.row_of(self.focus) if self.focus is not None else None
        if row is not None:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0),
                                QAbstractItemView.ScrollHint.PositionAtCenter)

    def _answer_text(self, survey: list[tuple[str, Entry | None]]) -> str:
        assert self.focus is not None
        lines = [f"<b>{escape(shown(self.focus.parent.name))}</b> in each client:"]
        for title, entry in survey:
            if entry is None:
                lines.append(f"{escape(title)}: not in any folder it could read")
                continue
            why = f" — {escape(shown(entry.why))}" if entry.why else ""
            lines.append(f"{escape(title)}: <b>{escape(entry.state)}</b>{why}")
        return "<br>".join(lines)

    def _on_client_current_index_changed(self, _index: int) -> None:
        self.rescan()

    def _on_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Choose the project folder")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.fileSelected.connect(self._on_dialog_file_selected)
        dialog.open()

    def _on_dialog_file_selected(self, folder: str) -> None:
        self.project.setText(folder)
        self.rescan()


__all__ = ["ClientsView"]

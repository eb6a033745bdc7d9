"""Trigger queries the model wrote (`studio.evals.generate`), for the author to review before
anything is saved: keep or drop each, edit its words or whether it should pick the skill, then add
the kept ones to evals/triggers.json (what is there stays, duplicates are left out)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.skills.checks import evalfiles
from studio.ui.rows import RowsModel

Index = QModelIndex | QPersistentModelIndex
CHECK = Qt.ItemDataRole.CheckStateRole


@dataclass(slots=True)
class Proposal:
    """A written query as the author is reviewing it."""

    query: str
    should_trigger: bool
    keep: bool = True


class ProposalsModel(RowsModel):
    """Keep (a check), the query (edited in place), should trigger (a check)."""

    COLUMNS = ("Keep", "Query", "Should trigger")

    @property
    def proposals(self) -> Sequence[Proposal]:
        return self._rows

    def set_queries(self, queries: list[evalfiles.TriggerQuery]) -> None:
        self.set_rows([Proposal(q.query, q.should_trigger) for q in queries])

    def kept(self) -> list[evalfiles.TriggerQuery]:
        return [evalfiles.TriggerQuery(p.query.strip(), p.should_trigger) for p in self.proposals
                if p.keep and p.query.strip()]

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 1:
            return flags | Qt.ItemFlag.ItemIsEditable
        return flags | Qt.ItemFlag.ItemIsUserCheckable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        proposal = self.proposals[index.row()]
        column = index.column()
        if column == 1 and role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole,
                                    Qt.ItemDataRole.ToolTipRole):
            return proposal.query
        if column in (0, 2) and role == CHECK:
            on = proposal.keep if column == 0 else proposal.should_trigger
            return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        if column == 2 and role == Qt.ItemDataRole.DisplayRole:
            return "yes" if proposal.should_trigger else "no (near miss)"
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        proposal = self.proposals[index.row()]
        if index.column() == 1 and role == Qt.ItemDataRole.EditRole:
            proposal.query = str(value)
        elif index.column() in (0, 2) and role == CHECK:
            on = Qt.CheckState(value) == Qt.CheckState.Checked
            if index.column() == 0:
                proposal.keep = on
            else:
                proposal.should_trigger = on
        else:
            return False
        self.dataChanged.emit(index, index)
        return True


class GeneratedQueries(QWidget):
    """The review of the written queries.

    Attributes:
        model: the queries as reviewed.

    Signals:
        add_requested: (list of TriggerQuery) the author added the kept queries.
    """

    add_requested = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProposalsModel(self)
        self.note = QLabel("Generate Queries has the model write trigger queries for the skill: "
                           "half that should pick it, half near misses from its neighbours. "
                           "Review them here; nothing is saved until you add them.")
        self.note.setWordWrap(True)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName("Queries the model wrote")
        self.view.verticalHeader().hide()
        self.view.setWordWrap(True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.add_button = QPushButton("Add Kept Queries")
        self.add_button.setObjectName("addGenerated")
        self.add_button.setToolTip("Add the checked queries, as edited, to evals/triggers.json")
        self.drop_button = QPushButton("Discard All")
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.drop_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.drop_button.clicked.connect(self.clear)
        self._set_enabled()

    def show_queries(self, queries: list[evalfiles.TriggerQuery]) -> None:
        self.model.set_queries(queries)
        self._set_enabled()

    def clear(self) -> None:
        self.model.set_queries([])
        self._set_enabled()

    def _set_enabled(self) -> None:
        for button in (self.add_button, self.drop_button):
            button.setEnabled(bool(self.model.proposals))

    def _on_add_button_clicked(self) -> None:
        self.add_requested.emit(self.model.kept())

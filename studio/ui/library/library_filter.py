"""Narrowing the library tree by skill name and description, and by status (only skills with
errors, only those with warnings, or only those a model drafted or changed), keeping the roots of
matches.

Qt's recursive filtering judged a root or folder by walking its skills, and did so again for every
batch a scan inserted: with a filter typed while 8,000 skills loaded, each batch walked all the
skills before it (minutes at full CPU), and rows added under a hidden root never showed. Instead,
the filter judges each skill once, as it arrives or changes, and counts the matches under every
root and folder; a root or folder is shown when its count is above zero, a question answered
without looking at its skills. The library model announces a root or folder whose skills changed
(`dataChanged`), and the proxy, filtering dynamically, asks again about that one row.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
)

from studio.skills.library.summary import SkillSummary
from studio.ui.library.library_model import FILTER_ROLE, KIND_ROLE, SUMMARY_ROLE

ALL, ERRORS, WARNINGS, DRAFTED = "", "errors", "warnings", "drafted"
# A skill no agent can load has errors too.
STATUSES = {ERRORS: ("errors", "not-loadable"), WARNINGS: ("warnings",)}
CONTAINERS = ("root", "folder")
FILES = ("file", "dir")

Index = QModelIndex | QPersistentModelIndex


class LibraryFilter(QSortFilterProxyModel):
    """Shows the skills whose name, description or folder holds every word typed and whose
    status is the one picked, with their files, and the roots and folders that hold them.

    Attributes:
        match_count: how many skills of the library match (all of them with no filter set).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []
        self._status = ALL
        # Keyed by the source model's nodes (its indexes' internal pointers), which live as long
        # as their rows: a skill node's verdict on its summary (a changed skill has a new one),
        # the matching skills counted, and the matches under each root and folder.
        self._verdicts: dict[Any, tuple[object, bool]] = {}
        self._matched: set[Any] = set()
        self._counts: dict[Any, int] = {}
        self._total = 0
        self.setRecursiveFilteringEnabled(False)
        self.setAutoAcceptChildRows(False)
        self.setDynamicSortFilter(True)

    @property
    def active(self) -> bool:
        return bool(self._words) or bool(self._status)

    @property
    def match_count(self) -> int:
        return self._total

    def setSourceModel(self, model: QAbstractItemModel) -> None:
        old = self.sourceModel()
        if old is not None:
            old.rowsInserted.disconnect(self._on_source_rows_inserted)
            old.rowsAboutToBeRemoved.disconnect(self._on_source_rows_about_to_be_removed)
            old.dataChanged.disconnect(self._on_source_data_changed)
            old.modelReset.disconnect(self._recount)
            old.layoutChanged.disconnect(self._recount)
        # Connected after the proxy's own handlers: a batch's skills are judged before the model
        # announces their root and folder changed, so those rows are asked about with the counts
        # of the batch in.
        super().setSourceModel(model)
        model.rowsInserted.connect(self._on_source_rows_inserted)
        model.rowsAboutToBeRemoved.connect(self._on_source_rows_about_to_be_removed)
        model.dataChanged.connect(self._on_source_data_changed)
        model.modelReset.connect(self._recount)
        model.layoutChanged.connect(self._recount)
        self._recount()

    def set_text(self, text: str) -> None:
        words = text.lower().split()
        if words == self._words:
            return
        self.beginFilterChange()
        self._words = words
        self._recount()
        self.endFilterChange()

    def set_status(self, status: str) -> None:
        """ALL, ERRORS (skills with errors, loadable or not), WARNINGS (valid, with warnings) or
        DRAFTED (created or last changed by a model)."""
        if status == self._status:
            return
        self.beginFilterChange()
        self._status = status
        self._recount()
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self.active:
            return True
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        kind = model.data(index, KIND_ROLE)
        if kind == "skill":
            return self._verdict(index)
        if kind in CONTAINERS:
            return self._counts.get(index.internalPointer(), 0) > 0
        if kind in FILES:
            # A file shows with its skill, whose row is this one's nearest skill ancestor.
            parent = index.parent()
            while parent.isValid() and model.data(parent, KIND_ROLE) != "skill":
                parent = parent.parent()
            return parent.isValid() and self._verdict(parent)
        return False

    def accepts(self, summary: SkillSummary, text: str) -> bool:
        """Whether the skill `summary` describes, whose `filter_text` is `text`, is shown."""
        if self._status == DRAFTED:
            if summary.drafted_by is None:
                return False
        elif self._status and summary.status not in STATUSES[self._status]:
            return False
        return all(word in text for word in self._words)

    # -- the matches under each root and folder -------------------------------------------------------

    def _verdict(self, index: QModelIndex) -> bool:
        node = index.internalPointer()
        model = self.sourceModel()
        summary = model.data(index, SUMMARY_ROLE)
        known = self._verdicts.get(node)
        if known is not None and known[0] is summary:
            return known[1]
        verdict = (isinstance(summary, SkillSummary)
                   and self.accepts(summary, str(model.data(index, FILTER_ROLE))))
        self._verdicts[node] = (summary, verdict)
        return verdict

    def _add(self, index: QModelIndex, step: int) -> None:
        """Count a matching skill in (step 1) or out (step -1) of its roots and folders."""
        if step > 0:
            self._matched.add(index.internalPointer())
        else:
            self._matched.discard(index.internalPointer())
        self._total += step
        parent = index.parent()
        while parent.isValid():
            node = parent.internalPointer()
            self._counts[node] = self._counts.get(node, 0) + step
            parent = parent.parent()

    def _count_in(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        if kind == "skill":
            if self._verdict(index) and index.internalPointer() not in self._matched:
                self._add(index, 1)
        elif kind in CONTAINERS:
            model = self.sourceModel()
            for row in range(model.rowCount(index)):
                self._count_in(model.index(row, 0, index))

    def _count_out(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        if kind == "skill":
            self._verdicts.pop(index.internalPointer(), None)
            if index.internalPointer() in self._matched:
                self._add(index, -1)
        elif kind in CONTAINERS:
            model = self.sourceModel()
            for row in range(model.rowCount(index)):
                self._count_out(model.index(row, 0, index))
            self._counts.pop(index.internalPointer(), None)

    def _recount(self) -> None:
        self._verdicts.clear()
        self._matched.clear()
        self._counts.clear()
        self._total = 0
        model = self.sourceModel()
        if model is None or not self.active:
            return
        for row in range(model.rowCount()):
            self._count_in(model.index(row, 0))

    def _on_source_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if not self.active or parent.data(KIND_ROLE) in ("skill", *FILES):
            return
        model = self.sourceModel()
        for row in range(first, last + 1):
            self._count_in(model.index(row, 0, parent))

    def _on_source_rows_about_to_be_removed(self, parent: QModelIndex, first: int,
                                            last: int) -> None:
        if not self.active or parent.data(KIND_ROLE) in ("skill", *FILES):
            return
        model = self.sourceModel()
        for row in range(first, last + 1):
            self._count_out(model.index(row, 0, parent))

    def _on_source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex) -> None:
        if not self.active:
            return
        for row in range(top_left.row(), bottom_right.row() + 1):
            index = top_left.siblingAtRow(row)
            if index.data(KIND_ROLE) != "skill":
                continue
            before = index.internalPointer() in self._matched
            after = self._verdict(index)
            if after != before:
                self._add(index, 1 if after else -1)

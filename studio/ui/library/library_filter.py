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

Showing a match is what costs: a row inserted under an expanded row makes the tree lay out every
row it shows again. Shown as they came, the matches of a scan made the tree lay itself out on
almost every batch, each time over all the matches before (a filtered scan took 1.9 times an
unfiltered one). So skills that arrive matching are held back and shown together: at once when
as many wait as are shown (the tree's work stays within a few times the rows it ends up showing,
as a growing array's copies do), else after HOLD_MS; `release` shows them at the scan's end.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    QTimer,
)

from studio.skills.library import SkillSummary
from studio.ui.library.library_rows import FILTER_ROLE, KIND_ROLE, SUMMARY_ROLE

ALL, ERRORS, WARNINGS, DRAFTED = "", "errors", "warnings", "drafted"
# A skill no agent can load has errors too.
STATUSES = {ERRORS: ("errors", "not-loadable"), WARNINGS: ("warnings",)}
CONTAINERS = ("root", "folder")
FILES = ("file", "dir")
# How long a match that arrived may wait for others before the tree shows it.
HOLD_MS = 500

Index = QModelIndex | QPersistentModelIndex


class LibraryFilter(QSortFilterProxyModel):
    """Shows the skills whose name, description or folder holds every word typed and whose
    status is the one picked, with their files, and the roots and folders that hold them.

    Attributes:
        match_count: how many skills of the library match (all of them with no filter set),
            the ones held back included.
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
        # Matches that arrived and are not shown yet, by node.
        self._held: dict[Any, QPersistentModelIndex] = {}
        self._release_timer = QTimer(self)
        self._release_timer.setSingleShot(True)
        self._release_timer.timeout.connect(self.release)
        self.setRecursiveFilteringEnabled(False)
        self.setAutoAcceptChildRows(False)
        self.setDynamicSortFilter(True)

    @property
    def active(self) -> bool:
        return bool(self._words) or bool(self._status)

    @property
    def match_count(self) -> int:
        return self._total

    @property
    def held(self) -> int:
        """How many matches are held back, to be shown with others."""
        return len(self._held)

    @property
    def releasing(self) -> bool:
        """Whether the held matches are shown on the next turn of the event loop."""
        return self._release_timer.isActive() and self._release_timer.interval() == 0

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
            node = index.internalPointer()
            if node not in self._verdicts:
                # A skill arriving under a row the proxy holds: the proxy asks before this
                # filter hears of the rows inserted. A match is held back with the others.
                if self._verdict(index):
                    self._add(index, 1, hold=True)
                return False
            return self._verdict(index) and node not in self._held
        if kind in CONTAINERS:
            return self._counts.get(index.internalPointer(), 0) > 0
        if kind in FILES:
            # A file shows with its skill, whose row is this one's nearest skill ancestor.
            parent = index.parent()
            while parent.isValid() and model.data(parent, KIND_ROLE) != "skill":
                parent = parent.parent()
            return parent.isValid() and self._verdict(parent)
        return False

    def release(self) -> None:
        """Show the matches held back (see the module's docstring)."""
        self._release_timer.stop()
        if not self._held:
            return
        held = [index.sibling(index.row(), 0) for index in self._held.values() if index.isValid()]
        self._held.clear()
        for index in held:
            self._count_shown(index, 1)
        # The proxy, filtering dynamically, asks again about a row whose data changed, and
        # only about it: the matches, then the folders and roots that came to hold one,
        # innermost first (a folder's row is judged before its root's). Re-filtering every row
        # the proxy holds took a pass over the library's folders per release.
        model = self.sourceModel()
        ancestors: dict[Any, QModelIndex] = {}
        for index in held:
            model.dataChanged.emit(index, index)
            parent = index.parent()
            while parent.isValid() and parent.internalPointer() not in ancestors:
                ancestors[parent.internalPointer()] = parent
                parent = parent.parent()
        for parent in sorted(ancestors.values(), key=lambda found: found.data(KIND_ROLE) == "root"):
            model.dataChanged.emit(parent, parent)

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

    def _add(self, index: QModelIndex, step: int, hold: bool = False) -> None:
        """Count a matching skill in (step 1) or out (step -1): among the matches, and, unless
        it is held back (or was), in its roots and folders."""
        node = index.internalPointer()
        if step > 0:
            self._matched.add(node)
        else:
            self._matched.discard(node)
        self._total += step
        if hold:
            self._held[node] = QPersistentModelIndex(index)
        elif step < 0 and self._held.pop(node, None) is not None:
            return
        else:
            self._count_shown(index, step)

    def _count_shown(self, index: QModelIndex, step: int) -> None:
        parent = index.parent()
        while parent.isValid():
            node = parent.internalPointer()
            self._counts[node] = self._counts.get(node, 0) + step
            parent = parent.parent()

    def _count_in(self, index: QModelIndex, hold: bool = False) -> None:
        kind = index.data(KIND_ROLE)
        if kind == "skill":
            if self._verdict(index) and index.internalPointer() not in self._matched:
                self._add(index, 1, hold)
        elif kind in CONTAINERS:
            model = self.sourceModel()
            for row in range(model.rowCount(index)):
                self._count_in(model.index(row, 0, index), hold)

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
        self._held.clear()
        self._release_timer.stop()
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
            self._count_in(model.index(row, 0, parent), hold=True)
        if not self._held:
            return
        if len(self._held) >= self._total - len(self._held):
            # On the next turn of the event loop: the other roots' skills of the same batch
            # come along, and the views take in the rows of this insertion first.
            self._release_timer.start(0)
        elif not self._release_timer.isActive():
            self._release_timer.start(HOLD_MS)

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

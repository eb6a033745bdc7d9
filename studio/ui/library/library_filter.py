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

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    QTimer,
)

from studio.skills import SkillSummary
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_nodes import FileNode, Node, RootNode, SkillNode
from studio.ui.library.library_rows import COUNTED_ROLE, DISPLAY

ALL, ERRORS, WARNINGS, DRAFTED = "", "errors", "warnings", "drafted"
# A skill no agent can load has errors too.
STATUSES = {ERRORS: ("errors", "not-loadable"), WARNINGS: ("warnings",)}
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
        self._model: LibraryModel | None = None
        # Keyed by the source model's nodes, which live as long as their rows: a skill node's
        # verdict on its summary (a changed skill has a new one), the matching skills counted,
        # and the matches under each root and folder.
        self._verdicts: dict[Node, tuple[SkillSummary | None, bool]] = {}
        self._matched: set[Node] = set()
        self._counts: dict[Node, int] = {}
        self._total = 0
        # Matches that arrived and are not shown yet, in the order they came.
        self._held: dict[SkillNode, None] = {}
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
        if not isinstance(model, LibraryModel):
            raise TypeError(f"the library filter shows a LibraryModel, not {type(model).__name__}")
        old = self._model
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
        self._model = model
        model.rowsInserted.connect(self._on_source_rows_inserted)
        model.rowsAboutToBeRemoved.connect(self._on_source_rows_about_to_be_removed)
        model.dataChanged.connect(self._on_source_data_changed)
        model.modelReset.connect(self._recount)
        model.layoutChanged.connect(self._recount)
        self._recount()

    def set_text(self, text: str) -> None:
        words = text.lower().split()
        if words != self._words:
            self._change(words, self._status)

    def set_status(self, status: str) -> None:
        """ALL, ERRORS (skills with errors, loadable or not), WARNINGS (valid, with warnings) or
        DRAFTED (created or last changed by a model)."""
        if status != self._status:
            self._change(self._words, status)

    def _change(self, words: list[str], status: str) -> None:
        if not words and not status:
            # Cleared: every row passes, and the panel shows the model itself (see
            # `LibraryPanel.apply_filter`). A filter change would have Qt insert every row the
            # filter hid, asking the model for each row's parent again and again (3.3 s on
            # 8,223 skills); dropping the proxy's mapping costs nothing of the sort.
            self._words, self._status = words, status
            self._recount()
            self.invalidate()
            return
        self.beginFilterChange()
        self._words, self._status = words, status
        self._recount()
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self.active or self._model is None:
            return True
        # Read off the model's nodes, not through its indexes and roles: Qt asks about every
        # row a scan brings in, and each call into the model from here costs a crossing from
        # Qt to Python and back (three per row made the filter's share of a scan double).
        node = self._model.node(source_parent).children[source_row]
        if isinstance(node, SkillNode):
            if node not in self._verdicts:
                # A skill arriving under a row the proxy holds: the proxy asks before this
                # filter hears of the rows inserted. A match is held back with the others.
                if self._verdict(node):
                    self._add(node, 1, hold=True)
                return False
            return self._verdict(node) and node not in self._held
        if isinstance(node, FileNode):
            # A file shows with its skill.
            return node.skill is not None and self._verdict(node.skill)
        return self._counts.get(node, 0) > 0

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        """A root's or folder's row counts the matches shown in it, of all its skills."""
        if role == DISPLAY and self.active and self._model is not None:
            source = self.mapToSource(index)
            parts = self._model.data(source, COUNTED_ROLE)
            if parts is not None:
                before, total, after = parts
                shown = self._counts.get(source.internalPointer(), 0)
                return f"{before}{shown:,} of {total}{after}"
        return super().data(index, role)

    def release(self) -> None:
        """Show the matches held back (see the module's docstring)."""
        self._release_timer.stop()
        model = self._model
        if not self._held or model is None:
            return
        held = list(self._held)
        self._held.clear()
        for node in held:
            self._count_shown(node, 1)
        # The proxy, filtering dynamically, asks again about the rows whose data changed, and
        # only about them: the matches, then the folders and roots that came to hold one,
        # innermost first (a folder's row is judged before its root's), one span of rows per
        # parent. Re-filtering every row the proxy holds took a pass over the library's folders
        # per release; a signal per row, a pass over every listener of the model per match.
        folders: dict[Node, None] = {}
        roots: dict[Node, None] = {}
        for node in held:
            parent = node.parent
            while parent is not None and parent.parent is not None:
                (roots if isinstance(parent, RootNode) else folders)[parent] = None
                parent = parent.parent
        self._announce(model, held)
        self._announce(model, list(folders))
        self._announce(model, list(roots))

    def accepts(self, summary: SkillSummary, text: str) -> bool:
        """Whether the skill `summary` describes, whose `filter_text` is `text`, is shown."""
        if self._status == DRAFTED:
            if summary.drafted_by is None:
                return False
        elif self._status and summary.status not in STATUSES[self._status]:
            return False
        return all(word in text for word in self._words)

    # -- the matches under each root and folder -------------------------------------------------------

    @staticmethod
    def _announce(model: LibraryModel, nodes: Sequence[Node]) -> None:
        """Emit the model's dataChanged over the rows of `nodes`, one span per parent."""
        spans: dict[Node, tuple[QModelIndex, QModelIndex]] = {}
        for node in nodes:
            if node.parent is None:
                continue
            index = model.index_of(node)
            known = spans.get(node.parent)
            if known is None:
                spans[node.parent] = (index, index)
            else:
                first, last = known
                spans[node.parent] = (index if index.row() < first.row() else first,
                                      index if index.row() > last.row() else last)
        for first, last in spans.values():
            model.dataChanged.emit(first, last)

    def _verdict(self, node: SkillNode) -> bool:
        summary = node.summary
        known = self._verdicts.get(node)
        if known is not None and known[0] is summary:
            return known[1]
        verdict = (summary is not None and self._model is not None
                   and self.accepts(summary, self._model.filter_text_of(summary)))
        self._verdicts[node] = (summary, verdict)
        return verdict

    def _add(self, node: SkillNode, step: int, hold: bool = False) -> None:
        """Count a matching skill in (step 1) or out (step -1): among the matches, and, unless
        it is held back (or was), in its roots and folders."""
        if step > 0:
            self._matched.add(node)
        else:
            self._matched.discard(node)
        self._total += step
        if hold:
            self._held[node] = None
        elif step < 0 and node in self._held:
            del self._held[node]
        else:
            self._count_shown(node, step)

    def _count_shown(self, node: Node, step: int) -> None:
        # Every row above it but the model's invisible top node.
        parent = node.parent
        while parent is not None and parent.parent is not None:
            self._counts[parent] = self._counts.get(parent, 0) + step
            parent = parent.parent

    def _count_in(self, node: Node, hold: bool = False) -> None:
        if isinstance(node, SkillNode):
            if self._verdict(node) and node not in self._matched:
                self._add(node, 1, hold)
        elif not isinstance(node, FileNode):
            for child in node.children:
                self._count_in(child, hold)

    def _count_out(self, node: Node) -> None:
        if isinstance(node, SkillNode):
            self._verdicts.pop(node, None)
            if node in self._matched:
                self._add(node, -1)
        elif not isinstance(node, FileNode):
            for child in node.children:
                self._count_out(child)
            self._counts.pop(node, None)

    def _recount(self) -> None:
        self._verdicts.clear()
        self._matched.clear()
        self._counts.clear()
        self._total = 0
        self._held.clear()
        self._release_timer.stop()
        if self._model is None or not self.active:
            return
        for node in self._model.node(QModelIndex()).children:
            self._count_in(node)

    def _on_source_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if not self.active or self._model is None:
            return
        node = self._model.node(parent)
        if isinstance(node, SkillNode | FileNode):
            return
        for child in node.children[first:last + 1]:
            self._count_in(child, hold=True)
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
        if not self.active or self._model is None:
            return
        node = self._model.node(parent)
        if isinstance(node, SkillNode | FileNode):
            return
        for child in node.children[first:last + 1]:
            self._count_out(child)

    def _on_source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex) -> None:
        if not self.active or self._model is None:
            return
        parent = self._model.node(top_left).parent
        if parent is None:
            return
        for node in parent.children[top_left.row():bottom_right.row() + 1]:
            if not isinstance(node, SkillNode):
                continue
            before = node in self._matched
            after = self._verdict(node)
            if after != before:
                self._add(node, 1 if after else -1)

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

Typing a filter judges every skill, and on a large library that is too long for one turn of the
event loop (483 ms on 10,000 skills, most of it building each skill's text to search). Each
skill's text is built once and kept until its summary changes, and the skills are judged a slice
of time at a time (`SLICE_S`) on a zero timer; the proxy takes the new filter only when all are
judged (`filter_settling`, then `filter_settled`), so the view never shows half a judgement.
It takes it by dropping its mapping (`invalidate`), with no view over it: filtering again every
row it had mapped was one block of the size of the library. The view then maps the rows it lays
out, and `match_opener` opens the folders a slice at a time.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    QTimer,
    Signal,
)

from studio.skills import SkillSummary
from studio.ui import collector
from studio.ui.library.filter_judge import (
    ALL,
    SLICE_S,
    FilterTexts,
    Judged,
    Verdicts,
    accepts,
    judge,
)
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_nodes import FileNode, Node, RootNode, SkillNode
from studio.ui.library.library_rows import COUNTED_ROLE, DISPLAY

# How long a match that arrived may wait for others before the tree shows it.
HOLD_MS = 500

Index = QModelIndex | QPersistentModelIndex


class LibraryFilter(QSortFilterProxyModel):
    """Shows the skills whose name, description or folder holds every word typed and whose
    status is the one picked, with their files, and the roots and folders that hold them.

    Attributes:
        match_count: how many skills of the library match (all of them with no filter set),
            the ones held back included.

    Signals:
        filter_settling: a new filter was judged and the proxy is about to take it (a view
            that watches the proxy had better let go: it would hear of every row one by one).
        filter_settled: the proxy shows the filter last asked for.
    """

    filter_settling = Signal()
    filter_settled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []
        self._status = ALL
        self._model: LibraryModel | None = None
        # Keyed by the source model's nodes, which live as long as their rows: a skill node's
        # verdict on its summary (a changed skill has a new one), the matching skills counted,
        # and the matches under each root and folder.
        self._verdicts: dict[Node, tuple[SkillSummary | None, bool]] = {}
        self._texts: FilterTexts | None = None
        # The filter being judged, a slice at a time, and the timer that runs the next slice.
        self._judging: Generator[None, None, Judged] | None = None
        # Whether the library changed while a filter was being judged: its counts are then
        # counted again when it settles.
        self._stale = False
        self._pending: tuple[list[str], str] = ([], ALL)
        self._judge_timer = QTimer(self)
        self._judge_timer.setSingleShot(True)
        self._judge_timer.setInterval(0)
        self._judge_timer.timeout.connect(self._judge_slice)
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
    def judging(self) -> bool:
        """Whether a filter asked for is still being judged (the proxy shows the one before)."""
        return self._judging is not None

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
            old.modelReset.disconnect(self._on_source_model_reset)
            old.layoutChanged.disconnect(self._on_source_model_reset)
            old.quiet_rows_inserted.disconnect(self._rows_in)
            old.quiet_rows_removing.disconnect(self._rows_out)
        # Connected after the proxy's own handlers: a batch's skills are judged before the model
        # announces their root and folder changed, so those rows are asked about with the counts
        # of the batch in.
        super().setSourceModel(model)
        self._model = model
        model.rowsInserted.connect(self._on_source_rows_inserted)
        model.rowsAboutToBeRemoved.connect(self._on_source_rows_about_to_be_removed)
        model.dataChanged.connect(self._on_source_data_changed)
        model.modelReset.connect(self._on_source_model_reset)
        model.layoutChanged.connect(self._on_source_model_reset)
        model.quiet_rows_inserted.connect(self._rows_in)
        model.quiet_rows_removing.connect(self._rows_out)
        self._on_source_model_reset()

    def set_text(self, text: str) -> None:
        self.set_filter(text, self._pending[1])

    def set_status(self, status: str) -> None:
        self.set_filter(" ".join(self._pending[0]), status)

    def set_filter(self, text: str, status: str) -> None:
        """Show the skills holding every word of `text` whose status is `status`: ALL, ERRORS
        (skills with errors, loadable or not), WARNINGS (valid, with warnings) or DRAFTED
        (created or last changed by a model). Settled at once on a small library, else after
        the slices of judging it takes (`filter_settled`)."""
        words = text.lower().split()
        if (words, status) == self._pending:
            return
        self._pending = (words, status)
        self._judge_timer.stop()
        self._judging = None
        self._stale = False
        if (words, status) == (self._words, self._status):
            self.filter_settled.emit()
            return
        if not words and not status:
            self._change(words, status)
            return
        assert self._texts is not None
        self._judging = judge(self._texts, words, status)
        self._judge_slice()

    def _judge_slice(self) -> None:
        judging = self._judging
        if judging is None:
            return
        deadline = time.perf_counter() + SLICE_S
        try:
            next(judging)
            while time.perf_counter() < deadline:
                next(judging)
        except StopIteration as done:
            self._judging = None
            self._change(*self._pending, judged=done.value)
            return
        finally:
            # What judging keeps (a verdict and a text per skill: 200,000 objects at 100,000
            # skills) had the collector walk it all again and again: pauses of 100 to 200 ms.
            collector.settle()
        self._judge_timer.start()

    def _change(self, words: list[str], status: str, judged: Judged | None = None) -> None:
        self.filter_settling.emit()
        if not words and not status:
            # Cleared: every row passes, and the panel shows the model itself (see
            # `LibraryPanel.apply_filter`). A filter change would have Qt insert every row the
            # filter hid, asking the model for each row's parent again and again (3.3 s on
            # 8,223 skills); dropping the proxy's mapping costs nothing of the sort.
            self._words, self._status = words, status
            self._recount()
            self.invalidate()
            self.filter_settled.emit()
            return
        self._words, self._status = words, status
        if judged is None or self._stale:
            self._recount(judged.verdicts if judged is not None else None)
        else:
            self._verdicts, self._matched, self._counts = (judged.verdicts, judged.matched,
                                                           judged.counts)
            self._total = len(judged.matched)
            self._held.clear()
            self._release_timer.stop()
        # As for a cleared filter: the proxy's mapping is dropped, not filtered again. The
        # proxy has no view now (`filter_settling`), and a filter change re-filtered every row
        # of every folder it had mapped in one turn of the event loop (243 ms on 10,000
        # skills); the view maps the rows it lays out, a folder at a time (`match_opener`).
        self.invalidate()
        self.filter_settled.emit()

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

    def shows(self, node: SkillNode | Node) -> bool:
        """Whether the row of a skill, root or folder shows, told by the counts."""
        if isinstance(node, SkillNode):
            return self._verdict(node) and node not in self._held
        return self._counts.get(node, 0) > 0

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        """A root or folder has children when matches are shown in it: answered from the
        counts, not by judging its skills (Qt's answer), which a view asks of every folder
        it lays out."""
        if self.active and self._model is not None and parent.isValid():
            source = self.mapToSource(parent)
            node = self._model.node(source)
            if isinstance(node, SkillNode | FileNode):
                # A skill shown shows all its files: the model's answer. Qt's would map the
                # skill's files to judge them, for every skill row the view lays out.
                return self._model.hasChildren(source)
            return self._counts.get(node, 0) > 0
        return super().hasChildren(parent)

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
        model.announce(held)
        model.announce(list(folders))
        model.announce(list(roots))

    def accepts(self, summary: SkillSummary, text: str) -> bool:
        """Whether the skill `summary` describes, whose `filter_text` is `text`, is shown."""
        return accepts(self._words, self._status, summary, text)


    # -- the matches under each root and folder -------------------------------------------------------

    def _verdict(self, node: SkillNode) -> bool:
        summary = node.summary
        known = self._verdicts.get(node)
        if known is not None and known[0] is summary:
            return known[1]
        verdict = (summary is not None and self._model is not None
                   and self._texts is not None
                   and self.accepts(summary, self._texts.of(node, summary)))
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
            if self._texts is not None:
                self._texts.forget(node)
            if node in self._matched:
                self._add(node, -1)
        elif not isinstance(node, FileNode):
            for child in node.children:
                self._count_out(child)
            self._counts.pop(node, None)

    def _recount(self, verdicts: Verdicts | None = None) -> None:
        """Count the matches again, from `verdicts` where they are still true to a summary."""
        self._verdicts = verdicts if verdicts is not None else {}
        self._matched.clear()
        self._counts.clear()
        self._total = 0
        self._held.clear()
        self._release_timer.stop()
        if self._model is None or not self.active:
            return
        for node in self._model.node(QModelIndex()).children:
            self._count_in(node)

    def _on_source_model_reset(self) -> None:
        self._stale = self._stale or self._judging is not None
        # The model's nodes are new: the texts kept for the old ones would never be asked for.
        if self._model is not None:
            self._texts = FilterTexts(self._model)
        self._recount()

    def _on_source_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if self._model is None or self._model.handing_out:
            # Rows the model had, handed to the views now: counted when they came in.
            return
        self._rows_in(self._model.node(parent), first, last)

    def _rows_in(self, node: Node, first: int, last: int) -> None:
        self._stale = self._stale or self._judging is not None
        if not self.active or self._model is None:
            return
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
        if self._model is not None:
            self._rows_out(self._model.node(parent), first, last)

    def _rows_out(self, node: Node, first: int, last: int) -> None:
        self._stale = self._stale or self._judging is not None
        if not self.active or self._model is None:
            return
        if isinstance(node, SkillNode | FileNode):
            return
        for child in node.children[first:last + 1]:
            self._count_out(child)

    def _on_source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex) -> None:
        self._stale = self._stale or self._judging is not None
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

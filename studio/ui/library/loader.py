"""Scanning skill roots in a child process and feeding the core `Library` in small batches.

The child process parses and validates; a `ScanClient` builds its command line and turns what it
writes into events as they arrive, and this side moves the skills into the library a batch per
tick of a short timer, each batch sized to take about `TICK_BUDGET_S` of the window's thread, so
the window stays responsive however large the library is and however busy the machine (why a
process: see `studio.skills.scan.process`).
"""

from __future__ import annotations

import collections
import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

import studio
from studio.skills import SPEC, SkillSummary
from studio.skills.library import Library
from studio.skills.scan import RootScanned, ScanClient, SkillRoot, SkillsFound
from studio.ui import collector

log = logging.getLogger(__name__)

# The window's time a tick may spend moving skills into the library. What a skill costs there
# grows with what listens (the tree, the Problems panel, a filter) and with the machine's load,
# so the batch follows the measured cost: a fixed 250 took 35 ms on a quiet machine and over
# 100 ms on a busy one (benchmarks/problems_panel.py). Each tick also costs a repaint and the
# listeners' once-per-batch work: moving 10,000 skills listed and then validated took the window
# 130-150 and 170 µs a skill at 12 ms, 120-126 and 137-140 µs at 20 ms (at load 3.7), and a
# keypress still waits at most one tick.
TICK_BUDGET_S = 0.02
FIRST_BATCH = 100
MIN_BATCH = 10
MAX_BATCH = 1000
DRAIN_INTERVAL_MS = 15
# A batch goes into the library in this many parts at most, the clock read after each, and
# parts of at least PART skills (a small library's first batch goes in whole, as before).
PARTS = 4
PART = 100
# Between ticks while more skills wait than one batch holds: the window's other events (input,
# painting) still come between two ticks, but a library of 10,000 skills no longer waits 15 ms
# idle after every 12 ms of work (that alone made listing it take over 3 s).
BACKLOG_INTERVAL_MS = 1
SOURCE_DIR = Path(studio.__file__).resolve().parent.parent


def cache_for(cache_path: Path, target: str) -> Path:
    """The scan cache of a target: the spec's is `cache_path`, another's sits beside it."""
    if target == SPEC:
        return cache_path
    return cache_path.with_name(f"{cache_path.stem}-{target}{cache_path.suffix}")


def next_batch(batch: int, moved: int, seconds: float) -> int:
    """The size of the next batch after `moved` skills took `seconds`: what fits the tick's
    budget at that pace, moving halfway there (one slow tick, the system busy elsewhere for a
    moment, should not shrink the batch to nothing, nor one fast tick of tiny skills grow it
    past the budget)."""
    if moved < batch:
        # A partial batch (the scan's end, or a slow stream) says little about the pace.
        return batch
    fits = int(TICK_BUDGET_S * moved / seconds) if seconds > 0 else MAX_BATCH
    return max(MIN_BATCH, min(MAX_BATCH, (batch + fits) // 2))


class LibraryLoader(QObject):
    """Scans queued roots, one child process at a time.

    Signals:
        scan_started: roots were queued for scanning.
        progressed: carries how many skills the library holds so far while scanning.
        root_scanned: (Path, list[str]) a root is in the library; the list holds the folders
            below it that are not skills (where new skills may appear).
        scan_finished: every queued root was scanned (or the scan was stopped).
    """

    scan_started = Signal()
    progressed = Signal(int)
    root_scanned = Signal(Path, list)
    scan_finished = Signal()

    def __init__(self, library: Library, cache_path: Path | None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._cache_path = cache_path
        self._queue: list[SkillRoot] = []
        # Skills not yet in the library: events, the first of them moved up to `_offset`.
        self._found: collections.deque[SkillsFound] = collections.deque()
        self._offset = 0
        self._pending = 0
        # How many of `_found` belong to each root: a root is finished once none is left.
        self._waiting: collections.Counter[Path] = collections.Counter()
        self._unmarked = False
        # The shared names (SK301) judged at the end of a scan, steps of it up to a tick's
        # budget each: a real collection of 8,000 skills has 400 names shared by 1,300 forks,
        # and judging them in one tick froze the window for over half a second.
        self._judging: Iterator[None] | None = None
        self._done: collections.deque[tuple[Path, str | None, list[str]]] = collections.deque()
        self._client = ScanClient()
        self._errors = bytearray()
        self._process: QProcess | None = None
        self._running: list[SkillRoot] = []
        self._ignored: set[Path] = set()
        self._batch = FIRST_BATCH
        self._draining = False
        self._stopped = False
        # Started again after each tick's work, not on a fixed beat: a beat that fell due while a
        # tick ran fired again at once, and two ticks' work ran back to back.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DRAIN_INTERVAL_MS)
        self._timer.timeout.connect(self._on_timer_timeout)

    @property
    def busy(self) -> bool:
        """True from `scan()` until `scan_finished` (the drain timer runs exactly that long)."""
        return self._timer.isActive() or self._draining or self._process is not None

    def scan(self, roots: list[SkillRoot], *, refresh: bool = False) -> None:
        """Queue roots for scanning; a root already in the library is emptied and scanned again,
        or with `refresh` validated again with its skills left in place (each is replaced as its
        new findings arrive: after its target changed)."""
        running = {root.path for root in self._running}
        for root in roots:
            known = self._library.root(root.path) is not None
            self._library.add_root(root)
            if refresh and known:
                self._library.start_refresh(root.path)
            else:
                self._library.clear_root(root.path)
            self._library.set_scanning(root.path, True)
            self._forget_found(root.path)
            self._waiting.pop(root.path, None)
            self._done = collections.deque(item for item in self._done if item[0] != root.path)
            if root.path in running:
                # What the running scan still sends for it was found under the old settings.
                self._ignored.add(root.path)
        self._stopped = False
        self._queue.extend(root for root in roots if root not in self._queue)
        # A skill elsewhere may share a name with one found now, or no longer with one gone.
        self._unmarked = True
        if self._process is None:
            self._start_next()
        if not self._timer.isActive():
            self._timer.start()
        self.scan_started.emit()

    def _forget_found(self, root: Path) -> None:
        if self._found and self._found[0].root == root:
            self._offset = 0
        self._found = collections.deque(found for found in self._found if found.root != root)
        self._pending = sum(len(found) for found in self._found) - self._offset

    def stop(self) -> None:
        """Kill a running scan and forget the queue: used when the window closes."""
        self._queue.clear()
        process = self._process
        if process is not None:
            process.finished.disconnect(self._on_process_finished)
            process.kill()
            process.waitForFinished(2000)
            self._process = None
        self._found.clear()
        self._offset = self._pending = 0
        self._waiting.clear()
        self._judging = None
        # A stop from a handler of this tick's signals (the window closing) ends the ticks too.
        self._stopped = True
        self._timer.stop()

    def _start_next(self) -> None:
        if not self._queue:
            return
        # One child scans the roots that share its options: whether to walk hidden folders, and
        # the target they are judged for (each target keeps a cache of its own).
        first = self._queue[0]
        options = (first.include_hidden, self._library.target_of(first.path))
        self._running = [root for root in self._queue
                         if (root.include_hidden, self._library.target_of(root.path)) == options]
        self._queue = [root for root in self._queue if root not in self._running]
        self._ignored.clear()
        hidden, target = options
        arguments = ScanClient.arguments(
            [root.path for root in self._running],
            cache=cache_for(self._cache_path, target) if self._cache_path is not None else None,
            hidden=hidden, target=target,
            # Links from one root into another are followed (the skill shown once, in its folder).
            linked_roots=[state.path for state in self._library.roots() if not state.root.read_only],
        )
        process = QProcess(self)
        environment = QProcessEnvironment.systemEnvironment()
        python_path = environment.value("PYTHONPATH")
        environment.insert("PYTHONPATH", os.pathsep.join(filter(None, [str(SOURCE_DIR),
                                                                       python_path])))
        process.setProcessEnvironment(environment)
        process.readyReadStandardOutput.connect(self._on_process_ready_read_standard_output)
        process.readyReadStandardError.connect(self._on_process_ready_read_standard_error)
        process.finished.connect(self._on_process_finished)
        self._client = ScanClient()
        self._errors.clear()
        self._process = process
        process.start(sys.executable, arguments)

    def _on_process_ready_read_standard_output(self) -> None:
        if self._process is None:
            return
        for event in self._client.feed(self._process.readAllStandardOutput().data()):
            if isinstance(event, SkillsFound):
                if event.root not in self._ignored:
                    self.queue_found(event)
            elif isinstance(event, RootScanned) and event.root not in self._ignored:
                self._done.append((event.root, event.error, event.folders))

    def queue_found(self, found: SkillsFound) -> None:
        """Skills to move into the library on the next ticks (listed ones replaced by their
        validated summaries as those arrive)."""
        if not len(found):
            return
        self._found.append(found)
        self._pending += len(found)
        self._waiting[found.root] += len(found)

    def _on_process_ready_read_standard_error(self) -> None:
        if self._process is not None:
            self._errors += self._process.readAllStandardError().data()

    def _on_process_finished(self, exit_code: int, _status: QProcess.ExitStatus) -> None:
        self._on_process_ready_read_standard_output()
        finished = {path for path, _, _ in self._done}
        if exit_code != 0:
            detail = self._errors.decode("utf-8", "replace").strip().splitlines()
            reason = detail[-1] if detail else f"exit code {exit_code}"
            log.error("the library scan failed: %s", self._errors.decode("utf-8", "replace"))
            for root in self._running:
                if root.path not in finished and root.path not in self._ignored:
                    self._done.append((root.path, f"the scan of this folder stopped: {reason}", []))
        process = self._process
        self._process = None
        self._running = []
        if process is not None:
            process.deleteLater()
        self._start_next()
        if not self._timer.isActive():
            self._timer.start()

    def _on_timer_timeout(self) -> None:
        self._draining = True
        try:
            more = self.drain()
        finally:
            self._draining = False
        if more and not self._stopped and not self._timer.isActive():
            backlog = self._pending > self._batch or self._judging is not None
            self._timer.start(BACKLOG_INTERVAL_MS if backlog else DRAIN_INTERVAL_MS)

    def drain(self) -> bool:
        """Move what the scan found into the library; True while there is more to come.

        Each tick does one of: finish a root all of whose skills are in, move a batch of skills
        in, judge the names skills share (once all are in) for a tick's budget, or end the
        scan. Each of these took 30 to 80 ms of the window's thread with 10,000 skills; together
        in one tick they froze it for over 100 ms."""
        if self._done and (not self._found or not self._waiting[self._done[0][0]]):
            path, error, folders = self._done.popleft()
            self._library.finish_refresh(path)
            self._library.set_scanning(path, False, error)
            self.root_scanned.emit(path, folders)
            return True
        if self._found:
            self._move_batch()
            return True
        if self._process is not None or self._queue or self._done:
            return True
        if self._unmarked:
            self._unmarked = False
            self._judging = self._library.judge_shared_names()
        if self._judging is not None:
            self._judge_some(self._judging)
            return True
        self._timer.stop()
        self.scan_finished.emit()
        return False

    def _judge_some(self, judging: Iterator[None]) -> None:
        """Steps of the judging until the tick's budget is spent (at least one)."""
        deadline = time.perf_counter() + TICK_BUDGET_S
        for _ in judging:
            if time.perf_counter() >= deadline:
                return
        self._judging = None

    def _move_batch(self) -> None:
        """Move up to a batch of skills in, a part at a time, stopping once the tick's budget is
        spent: when the skills turn costlier (validated ones replacing the listed, at 100,000
        skills), a batch sized by the cheaper ones took 200 to 470 ms."""
        started = time.perf_counter()
        deadline = started + TICK_BUDGET_S
        part = max(PART, self._batch // PARTS)
        moved = 0
        while self._pending and moved < self._batch:
            moved += self._move(min(part, self._batch - moved, self._pending))
            if time.perf_counter() >= deadline:
                break
        # The summaries live as long as the library (see studio.ui.collector).
        collector.settle()
        self._unmarked = True
        self.progressed.emit(self._library.skill_count)
        # Cut short by the budget, what was moved is a batch's worth at this pace.
        full = moved if moved < self._batch and self._pending else self._batch
        self._batch = next_batch(full, moved, time.perf_counter() - started)

    def _move(self, count: int) -> int:
        """Move the next `count` skills into the library; `count`."""
        batch: dict[Path, list[SkillSummary]] = {}
        left = count
        while left:
            found = self._found[0]
            stop = min(len(found), self._offset + left)
            batch.setdefault(found.root, []).extend(found.summaries(self._offset, stop))
            left -= stop - self._offset
            if stop == len(found):
                self._found.popleft()
                self._offset = 0
            else:
                self._offset = stop
        self._pending -= count
        for path, summaries in batch.items():
            self._waiting[path] -= len(summaries)
            if self._waiting[path] <= 0:
                del self._waiting[path]
            self._library.add_skills(path, summaries)
        return count

"""Scanning skill roots in a child process and feeding the core `Library` in small batches.

The child (`studio.skills.scan_process`) parses and validates; this side reads its frames as they
arrive and moves at most `BATCH` skills into the library per tick of a short timer, so the window
stays responsive however large the library is (why a process: see scan_process).
"""

from __future__ import annotations

import collections
import logging
import os
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

import studio
from studio.skills.clients import SPEC
from studio.skills.collection import Library
from studio.skills.library import SkillRoot
from studio.skills.scan_process import read_frames
from studio.skills.summary import SkillSummary
from studio.ui import collector

log = logging.getLogger(__name__)

# Skills moved into the library per tick: 500 took 35-45 ms of the window's thread.
BATCH = 250
DRAIN_INTERVAL_MS = 15
SOURCE_DIR = Path(studio.__file__).resolve().parent.parent


def cache_for(cache_path: Path, target: str) -> Path:
    """The scan cache of a target: the spec's is `cache_path`, another's sits beside it."""
    if target == SPEC:
        return cache_path
    return cache_path.with_name(f"{cache_path.stem}-{target}{cache_path.suffix}")


class LibraryLoader(QObject):
    """Scans queued roots, one child process at a time.

    Signals:
        scan_started: roots were queued for scanning.
        progressed: carries how many skills the library holds so far while scanning.
        root_scanned: (Path, list[Path]) a root is in the library; the list holds the folders
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
        self._found: collections.deque[tuple[Path, tuple[Any, ...]]] = collections.deque()
        self._done: collections.deque[tuple[Path, str | None, list[Path]]] = collections.deque()
        self._buffer = bytearray()
        self._errors = bytearray()
        self._process: QProcess | None = None
        self._running: list[SkillRoot] = []
        self._ignored: set[Path] = set()
        self._timer = QTimer(self)
        self._timer.setInterval(DRAIN_INTERVAL_MS)
        self._timer.timeout.connect(self._on_timer_timeout)

    @property
    def busy(self) -> bool:
        """True from `scan()` until `scan_finished` (the drain timer runs exactly that long)."""
        return self._timer.isActive() or self._process is not None

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
            self._found = collections.deque(item for item in self._found if item[0] != root.path)
            self._done = collections.deque(item for item in self._done if item[0] != root.path)
            if root.path in running:
                # What the running scan still sends for it was found under the old settings.
                self._ignored.add(root.path)
        self._queue.extend(root for root in roots if root not in self._queue)
        if self._process is None:
            self._start_next()
        if not self._timer.isActive():
            self._timer.start()
        self.scan_started.emit()

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
        arguments = ["-m", "studio.skills.scan_process"]
        if self._cache_path is not None:
            arguments += ["--cache", str(cache_for(self._cache_path, target))]
        if hidden:
            arguments.append("--hidden")
        if target != SPEC:
            arguments += ["--target", target]
        arguments += ["--", *(str(root.path) for root in self._running)]
        process = QProcess(self)
        environment = QProcessEnvironment.systemEnvironment()
        python_path = environment.value("PYTHONPATH")
        environment.insert("PYTHONPATH", os.pathsep.join(filter(None, [str(SOURCE_DIR),
                                                                       python_path])))
        process.setProcessEnvironment(environment)
        process.readyReadStandardOutput.connect(self._on_process_ready_read_standard_output)
        process.readyReadStandardError.connect(self._on_process_ready_read_standard_error)
        process.finished.connect(self._on_process_finished)
        self._buffer.clear()
        self._errors.clear()
        self._process = process
        process.start(sys.executable, arguments)

    def _on_process_ready_read_standard_output(self) -> None:
        if self._process is None:
            return
        self._buffer += self._process.readAllStandardOutput().data()
        for frame in read_frames(self._buffer):
            if len(frame) > 1 and Path(frame[1]) in self._ignored:
                continue
            if frame[0] == "skills":
                path = Path(frame[1])
                self._found.extend((path, item) for item in frame[2])
            elif frame[0] == "root":
                self._done.append((Path(frame[1]), frame[2], [Path(f) for f in frame[3]]))

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
        self.drain()

    def drain(self) -> bool:
        """Move what the scan found into the library; True while there is more to come."""
        batch: dict[Path, list[SkillSummary]] = {}
        for _ in range(min(BATCH, len(self._found))):
            path, data = self._found.popleft()
            batch.setdefault(path, []).append(SkillSummary.from_cache(path, data))
        for path, summaries in batch.items():
            self._library.add_skills(path, summaries)
        if batch:
            # The summaries live as long as the library (see studio.ui.collector).
            collector.settle()
            self.progressed.emit(self._library.skill_count)
        while self._done and not any(path == self._done[0][0] for path, _ in self._found):
            path, error, folders = self._done.popleft()
            self._library.finish_refresh(path)
            self._library.set_scanning(path, False, error)
            self.root_scanned.emit(path, folders)
        if self._process is None and not self._queue and not self._found and not self._done:
            self._timer.stop()
            self._library.mark_duplicate_names()
            self.scan_finished.emit()
            return False
        return True

"""The skill scanner run over the library in the background, for the Problems panel's Security
group: every skill as it arrives, and again when the library judges it again (a save, a rename,
a refresh of its root) or one of its files is saved or changed on disk.

The scanner reads every file of a skill (bounded; `studio.threatscan`), so it runs a batch of
skills at a time in a worker, never on the window's thread: a thread for a few skills, and a
process of lower priority once `PROCESS_AT` skills wait (a library being loaded). In a thread,
one long parse of a large file holds Python's lock and the window waits for it; a process
costs the window nothing but its start (about 0.7 s of CPU), too much for a handful of skills
(and for each of the test suite's windows). The results are told in batches (`changed`, at
most every `REFRESH_MS` while a large library is being scanned), so the group is rebuilt a few
times a second at most, never once per skill. Skills inside a zip root are scanned as folders
are (the scanner reads the archive's members within the same bounds), and again when the
archive changes."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from studio.skills.library import Library, events
from studio.threatscan import Finding, scan_skills
from studio.ui.problems.security_rows import SkillFindings
from studio.ui.tasks import TaskSet
from studio.ui.watcher import FileWatcher

# Skills scanned per call into the worker: small enough that a change waits little behind a
# batch, large enough that the hop to the worker and back is a small part of the work.
BATCH = 24
REFRESH_MS = 400
# How far above a changed file its skill's folder is looked for.
SKILL_DEPTH = 8
# Skills waiting for which the scans move to a process of their own (see above), and its
# niceness: the window and the library's own scan come first.
PROCESS_AT = 200
NICENESS = 10


def _process_pool() -> ProcessPoolExecutor:
    """One worker process, started afresh ("spawn": the window's process runs threads, and a
    fork of it could inherit a lock another thread held), importing the scanner only."""
    lower = functools.partial(os.nice, NICENESS) if hasattr(os, "nice") else None
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=lower)


class SecurityScans(QObject):
    """The scanner's findings per skill of the library, kept up to date in the background.

    Signals:
        changed: findings were added, changed or dropped (told a batch at a time).
    """

    changed = Signal()

    def __init__(self, library: Library, tasks: TaskSet, watcher: FileWatcher | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._tasks = tasks
        self._found: dict[Path, list[Finding]] = {}
        # The stamp of each skill's files when it was scanned: a skill judged again by the
        # library (a refresh, a name another skill shares now) is scanned again only if its
        # files changed.
        self._stamps: dict[Path, str] = {}
        # The skills the scanner failed on (reported once): scanned again when their files
        # change, not each time the library judges them again.
        self._faulted: set[Path] = set()
        # Waiting to be scanned, in order (a dict as an ordered set); the first ones go first.
        self._pending: dict[Path, None] = {}
        self._scanning: list[Path] = []
        self._running: asyncio.Task[None] | None = None
        self._closed = False
        self._last_told = 0.0
        self._tell = QTimer(self)
        self._tell.setSingleShot(True)
        self._tell.timeout.connect(self._on_tell_timeout)
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="security-scan")
        self._process: ProcessPoolExecutor | None = None
        self._process_broken = False
        self._one_by_one = 0
        library.connect(self._on_library_event)
        if watcher is not None:  # files changed by other programs
            watcher.file_changed.connect(self.path_changed)
            watcher.folder_changed.connect(self.path_changed)

    # -- reading ---------------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """How many skills are waiting to be scanned."""
        return len(self._pending)

    def waiting(self, directory: Path) -> bool:
        """Whether this skill is still to be scanned (or scanned again)."""
        return directory in self._pending or directory in self._scanning

    @property
    def in_process(self) -> bool:
        """Whether scans run in a process of their own (a large library was loaded)."""
        return self._process is not None

    @property
    def busy(self) -> bool:
        return bool(self._pending) or (self._running is not None and not self._running.done())

    def findings(self, only: Path | None = None) -> Iterator[SkillFindings]:
        """Each scanned skill of the library with findings (or only the one at `only`):
        folder, shown name, findings."""
        scanned = self._found.items() if only is None else [(only, self._found.get(only))]
        for directory, found in scanned:
            if not found:
                continue
            summary = self._library.summary_for(directory)
            if summary is not None:
                yield directory, summary.display_name, found

    def skill_of(self, path: Path) -> Path | None:
        """The folder of the library's skill holding `path` (or being it), if any."""
        for folder in [path, *list(path.parents)[:SKILL_DEPTH]]:
            if self._library.summary_for(folder) is not None:
                return folder
        return None

    # -- asking for scans ------------------------------------------------------------------------

    def rescan(self, directories: list[Path], first: bool = False) -> None:
        """Scan these skills (again); `first`: before the ones already waiting."""
        if self._closed:
            return
        wanted = list(directories)
        if not wanted:
            return
        if first:
            rest = {d: None for d in self._pending if d not in wanted}
            self._pending = dict.fromkeys(wanted) | rest
        else:
            self._pending.update(dict.fromkeys(wanted))
        if self._running is None or self._running.done():
            self._running = self._tasks.spawn(self._run())

    def prioritize(self, directory: Path) -> None:
        """Scan this skill before the others waiting (the one the user is looking at)."""
        if directory in self._pending:
            self._pending = {directory: None} | self._pending

    def path_changed(self, path: Path) -> None:
        """A file or folder changed (saved in a tab, or by another program): scan its skill."""
        directory = self.skill_of(path)
        if directory is not None:
            self._faulted.discard(directory)
            self.rescan([directory], first=True)

    def forget(self, directories: list[Path]) -> None:
        dropped = False
        for directory in directories:
            self._pending.pop(directory, None)
            self._stamps.pop(directory, None)
            self._faulted.discard(directory)
            dropped = self._found.pop(directory, None) is not None or dropped
        if dropped:
            self._told_soon()

    def _on_library_event(self, event: events.LibraryEvent) -> None:
        if isinstance(event, events.SkillsAdded):
            self.rescan([summary.directory for summary in event.summaries])
        elif isinstance(event, events.SkillsReplaced):
            # Judged again (validated after being listed, a refresh, a name shared now): read
            # again only if its files changed (`_stamps`); not while it is read now, nor after
            # the scanner failed on it (it would be reported again).
            skipped = self._faulted.union(self._scanning)
            self.rescan([summary.directory for summary in event.new
                         if summary.directory not in skipped])
        elif isinstance(event, events.SkillChanged):
            if event.old.directory != event.new.directory:
                self.forget([event.old.directory])
            self._faulted.discard(event.new.directory)
            # Not first: a fix of thousands of skills changes them one by one. A save in a tab
            # puts its skill first (`path_changed`).
            self.rescan([event.new.directory])
        elif isinstance(event, events.SkillsRemoved | events.RootRemoved):
            gone = [s.directory for s in (event.summaries if isinstance(event, events.SkillsRemoved)
                                          else event.skills)]
            self.forget([d for d in gone if self._library.summary_for(d) is None])

    # -- scanning ----------------------------------------------------------------------------------

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending and not self._closed:
            executor = self._executor()
            size = BATCH
            if self._one_by_one:
                self._one_by_one -= 1
                size = 1
            batch = list(self._pending)[:size]
            for directory in batch:
                del self._pending[directory]
            self._scanning = batch
            # Asked for again while in the worker: it is back in `_pending`, scanned again.
            known = {d: self._stamps[d] for d in batch if d in self._stamps}
            try:
                results = await loop.run_in_executor(executor, scan_skills, batch, known)
            except BrokenExecutor:
                # The process ended under us (killed, out of memory): the thread goes on.
                self._process, self._process_broken = None, True
                self._pending = dict.fromkeys(batch) | self._pending
                continue
            except Exception as exc:
                # A fault of the scanner on one of these skills: each is scanned alone, to
                # find which; that one is reported as any exception in the background is.
                if len(batch) > 1:
                    self._one_by_one = len(batch)
                    self._pending = dict.fromkeys(batch) | self._pending
                else:
                    self._faulted.add(batch[0])
                    sys.excepthook(type(exc), exc, exc.__traceback__)
                continue
            finally:
                self._scanning = []
            if self._closed:
                return
            for directory, stamp, found in results:
                if stamp is None or self._library.summary_for(directory) is None:
                    self._found.pop(directory, None)
                    self._stamps.pop(directory, None)
                elif found is not None:
                    self._found[directory] = found
                    self._stamps[directory] = stamp
            self._told_soon()
        self._tell.stop()
        self._on_tell_timeout()

    def _executor(self) -> Executor:
        if self._process is None and not self._process_broken and (
                len(self._pending) >= PROCESS_AT):
            self._process = _process_pool()
        return self._process or self._worker

    def _told_soon(self) -> None:
        """Tell `changed` now if it was not told lately, else when `REFRESH_MS` have passed."""
        if self._tell.isActive():
            return
        since = (time.monotonic() - self._last_told) * 1000
        self._tell.start(max(0, int(REFRESH_MS - since)))

    def _on_tell_timeout(self) -> None:
        self._last_told = time.monotonic()
        self.changed.emit()

    def close(self) -> None:
        self._closed = True
        self._pending.clear()
        self._tell.stop()
        self._library.disconnect(self._on_library_event)
        self._worker.shutdown(wait=False, cancel_futures=True)
        if self._process is not None:
            self._process.shutdown(wait=False, cancel_futures=True)

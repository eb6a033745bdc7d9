"""Skill roots, scanning them with a cache, and names that more than one skill uses.

A root is a folder searched recursively (skipping `.git`, `node_modules`, virtual environments,
hidden folders other than the clients' own such as `.claude` unless asked, symlink loops, and
links that lead out of the root; see `studio.skills.scan.walk`) or a `.zip` archive of skills, which is
read-only.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
import zipfile
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import studio.skills.codes as codes
from studio.skills.checks.validate import validate_skill
from studio.skills.clients import RECORDS, SPEC
from studio.skills.codes import CRASHED
from studio.skills.files import load_skill_file, load_zip_skills
from studio.skills.model import Diagnostic, RootNotice, Severity
from studio.skills.scan.cache import Fingerprint, ScanCache
from studio.skills.scan.entries import CheckedSkill, cache_entry, checked, checked_entry, decode, encode
from studio.skills.scan.interrupts import DeferredInterrupt
from studio.skills.scan.stamps import Stamp
from studio.skills.scan.walk import Fingerprints, Found, Link, walk_skills
from studio.skills.scan.zippath import ZIP_SUFFIXES
from studio.skills.summary import SkillSummary

# prctl(2): deliver a signal to this process when its parent ends.
_PR_SET_PDEATHSIG = 1

# Every project and user folder the offered clients read, in the registry's order, each once
# (the system's are for administrators, not offered).
_OFFERED = tuple(dict.fromkeys(
    folder for scope in ("project", "user") for record in RECORDS if record.offered
    for folder in record.skill_folders if folder.scope == scope))


def env_roots() -> list[Path]:
    """The folders STUDIO_SKILLS lists (separated like PATH, as OLLAMA_SKILLS), existing or not."""
    return [Path(p).expanduser() for p in os.environ.get("STUDIO_SKILLS", "").split(os.pathsep) if p]


def standard_locations(project: Path | None = None, home: Path | None = None,
                       env: Mapping[str, str] | None = None) -> list[Path]:
    """The places agents look for skills, for the app to offer as roots (existing or not), each
    where the client finds it with the variables of `env` (the process's by default:
    `$CODEX_HOME/skills`, ...), and those STUDIO_SKILLS lists (separated like PATH, as
    OLLAMA_SKILLS)."""
    home = home if home is not None else Path.home()
    env = os.environ if env is None else env
    found = env_roots()
    for folder in _OFFERED:
        place = folder.resolve(project, home, env)
        if place is not None and place not in found:
            found.append(place)
    return found


@dataclass(frozen=True, slots=True)
class SkillRoot:
    path: Path
    include_hidden: bool = False

    @property
    def is_zip(self) -> bool:
        return self.path.suffix.lower() in ZIP_SUFFIXES and not self.path.is_dir()

    @property
    def read_only(self) -> bool:
        return self.is_zip


@dataclass(slots=True)
class RootScan:
    """What scanning one root found: its skills, and what went wrong reading it.

    `walk_skills` lists each skill folder with its SKILL.md's name and fingerprint, and `folders` the
    stamps of the other folders the walk read: together, everything the scan's findings depend
    on; `notices`, what the walk found about the root itself (links it did not follow); `links`,
    the links to folders it followed (in the root, into another root or a client's skill
    folder)."""

    root: SkillRoot
    skills: list[SkillSummary] = field(default_factory=list)
    error: str | None = None
    walk: list[Found] = field(default_factory=list)
    folders: list[Stamp] = field(default_factory=list)
    notices: list[RootNotice] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)


def scan_root(
    root: SkillRoot,
    cache: ScanCache | None = None,
    on_skill: Callable[[SkillSummary], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    target: str = SPEC,
    linked_roots: tuple[str, ...] = (),
) -> RootScan:
    """Find and validate every skill under a root as `target` judges them, using the cache where
    nothing changed (a cache kept for another target is not used). Links into `linked_roots`
    (resolved paths of the library's other roots) are followed (see `walk_skills`)."""
    path = root.path
    skills: list[SkillSummary] = []

    def keep(entry: tuple[Any, ...]) -> None:
        summary = decode(path, entry)
        skills.append(summary)
        if on_skill is not None:
            on_skill(summary)

    result = scan_entries(root, keep, cache, cancelled, target, linked_roots, keep_walk=True)
    result.skills = skills
    return result


def scan_entries(
    root: SkillRoot,
    on_entry: Callable[[tuple[Any, ...]], None],
    cache: ScanCache | None = None,
    cancelled: Callable[[], bool] | None = None,
    target: str = SPEC,
    linked_roots: tuple[str, ...] = (),
    *,
    keep_walk: bool = False,
    on_walked: Callable[[Found], None] | None = None,
) -> RootScan:
    """`scan_root` for a caller that streams: each skill goes to `on_entry`, in order, as its
    cache tuple (`studio.skills.scan.entries`), as soon as it and every skill before it are
    validated, and the result keeps neither the skills nor (unless `keep_walk`) the walk: each
    skill the walk finds goes to `on_walked`, if given, as the walk finds it. A
    few chunks of skills are in flight at a time (see `_Validation`), so memory does not grow
    with the library."""
    result = RootScan(root)
    if cache is not None and cache.target != target:
        cache = None
    path = root.path
    if not path.exists():
        result.error = f"{path} does not exist"
        return result
    if root.is_zip:
        return _scan_zip(root, cache, result, on_entry, target)
    if not path.is_dir():
        result.error = f"{path} is neither a folder nor a .zip archive"
        return result
    complete = True
    seen: set[str] | None = set() if cache is not None else None
    with _Validation(root, cache, target) as validation:
        # Without a cache the fingerprints would serve nothing, and cost nearly a listing each.
        fingerprints: Fingerprints = "full" if cache is not None else "none"
        for item in walk_skills(path, root.include_hidden, result.folders, result.notices, fingerprints,
                         linked_roots=linked_roots, links=result.links):
            if cancelled is not None and cancelled():
                complete = False
                break
            if keep_walk:
                result.walk.append(item if item.listing is None else item._replace(listing=None))
            if on_walked is not None:
                on_walked(item)
            validation.add(item)
            for key, entry in validation.ready():
                if seen is not None:
                    seen.add(key)
                on_entry(entry)
        for key, entry in validation.entries() if complete else ():
            if cancelled is not None and cancelled():
                complete = False
                break
            if seen is not None:
                seen.add(key)
            on_entry(entry)
    if cache is not None and seen is not None and complete:
        cache.forget_missing(seen, str(path) + os.sep)
    return result


# Below this many skills to read, starting worker processes costs more than it saves.
PARALLEL_MIN = 64
CHUNK = 64


def validate_folders(found: list[Found], target: str = SPEC) -> list[tuple[Any, ...]]:
    """Validate skills the walk found, in a worker process; summaries come back as cache tuples."""
    return [_validate_folder(item, target) for item in found]


def _validate_folder(found: Found, target: str) -> tuple[Any, ...]:
    try:
        # A cache tuple keeps no fixes: the rules need not build them.
        return cache_entry(validate_skill(
            load_skill_file(found.folder, found.skill_name, found.listing, sizes=False),
            target, fixes=False,
        ))
    except Exception as exc:  # a bug met on one skill costs that skill, not the scan
        return _crashed(found, f"{type(exc).__name__}: {exc}")


def _check_folder(found: Found, target: str) -> CheckedSkill:
    """`_validate_folder` for a worker that renders the skill itself: what its report shows."""
    try:
        return checked(validate_skill(
            load_skill_file(found.folder, found.skill_name, found.listing, sizes=False),
            target, fixes=False,
        ))
    except Exception as exc:  # a bug met on one skill costs that skill, not the scan
        return checked_entry(_crashed(found, f"{type(exc).__name__}: {exc}"))


def _crashed(found: Found, what: str = "the process reading it died") -> tuple[Any, ...]:
    """The cache tuple of a skill whose validation failed: raised `what`, or killed the worker
    process validating it."""
    message = (
        f"validating this skill failed ({what}); the rest of the scan went on. This is a bug: "
        "please report it with this skill"
    )
    return (
        found.folder, os.path.join(found.folder, found.skill_name), None, None, False, False,
        False, ((CRASHED, Severity.ERROR.value, message, 1, 1, found.skill_name, None),),
        (None, None, None, None),
    )


def _is_crash(cached: tuple[Any, ...]) -> bool:
    # A summary's tuple starts with its folder; the tuples of `studio.skills.scan.headers` with None.
    return cached[0] is not None and bool(cached[7]) and cached[7][0][0] == CRASHED


Work = Callable[[list[Found], str], list[tuple[Any, ...]]]


def _validate_isolated(
    found: list[Found], target: str, work: Work = validate_folders
) -> list[tuple[Any, ...]]:
    """Validate skills whose worker died, each batch in a worker of its own: a batch whose worker
    dies again is halved until the skill that kills it stands alone, and only that one is
    reported as failed."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        1, mp_context=context, initializer=_end_with_parent, initargs=(os.getpid(),)
    ) as pool:
        try:
            return pool.submit(work, found, target).result()
        except BrokenProcessPool:
            pass
    if len(found) == 1:
        return [_crashed(found[0])]
    half = len(found) // 2
    return _validate_isolated(found[:half], target, work) + _validate_isolated(
        found[half:], target, work
    )


def usable_cores() -> int:
    """The cores this process may run on: its affinity (taskset, a container's cpuset), not the
    machine's count, which `os.cpu_count` gives; a worker per core it may not use only waits."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counted is not None:
        return int(counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _workers() -> int:
    return min(usable_cores(), 8)


def _pool(niceness: int = 0) -> ProcessPoolExecutor | None:
    """Worker processes for a cold scan, when the process can fork safely (one thread, a
    platform with fork) and it may use more than one core."""
    workers = _workers()
    if workers < 2 or threading.active_count() > 1:
        return None
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return None
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=_end_with_parent,
        initargs=(os.getpid(), niceness),
    )


def _end_with_parent(parent: int, niceness: int = 0) -> None:
    """Make a worker end when the scanning process does. The window stops a scan by killing its
    process, which cannot tell its workers; they hold the write end of their own task queue, so
    they would wait on it forever. Linux ends them with the parent (prctl); elsewhere a thread
    watches for the parent to be gone.

    Ctrl+C reaches the whole foreground group: a worker ignores it and finishes the chunk it is
    on, and the scanning process, which notes it (`DeferredInterrupt`), stops handing out chunks
    and shuts the pool down. A worker that ended on the signal could die halfway through writing
    its result, and the pool's reader would wait for the rest of it forever.

    A worker `niceness` above 0 yields the cores to the processes that show the library (see
    `studio.skills.scan.listed_first`)."""
    if niceness:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # gone before prctl took hold
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


Chunk = tuple[list[Found], "Future[list[tuple[Any, ...]]] | None"]

# Chunks a worker may have waiting beside the one it is on: enough that none idles while the
# scanning process catches up (on a loaded machine it gets little time, and the window's scan
# process waits for the window to read its frames), few enough that results do not pile up:
# 2,048 skills a worker, a few MB.
IN_FLIGHT_PER_WORKER = 16


class _Validation:
    """The skills of one scan, in order: from the cache where nothing changed, validated afresh
    where something did. Once PARALLEL_MIN skills need validating, they go in chunks to worker
    processes while the walk goes on, so the workers start before the walk ends. A worker that
    dies (a crash in a C library) costs only the skill it was on: see `_validate_isolated`.

    Results are handed out in the order the skills were added, as soon as they are ready
    (`ready`), and a few chunks per worker are in flight at most: when that many wait, `ready`
    waits for the oldest. So the skills held at once (added, not yet handed out) stay under
    `bound` however large the library; `peak` says how many were held at most."""

    def __init__(
        self,
        root: SkillRoot,
        cache: ScanCache | None,
        target: str = SPEC,
        work: Work = validate_folders,
        *,
        store: bool = True,
        niceness: int = 0,
    ) -> None:
        self.root = root
        self.cache = cache
        self.target = target
        # What a worker does with a chunk: a module-level function, so a forked worker finds it.
        self.work = work
        # Whether what `work` makes goes into the cache: not when it is less than a validation.
        self.store = store
        self.niceness = niceness
        # Each skill added and not yet handed out: (key, fingerprint, cached tuple or None).
        self._plan: deque[tuple[str, Fingerprint, Any]] = deque()
        self._stale: list[Found] = []
        self._chunks: deque[Chunk] = deque()
        # Results of chunks taken off `_chunks`, for the skills at the front of `_plan`.
        self._fresh: deque[tuple[Any, ...]] = deque()
        self._pool: ProcessPoolExecutor | None = None
        self._pool_tried = False
        self._in_flight = 2 * IN_FLIGHT_PER_WORKER
        self.peak = 0
        self._interrupt = DeferredInterrupt()

    @property
    def bound(self) -> int:
        """The most skills held at once: the chunks in flight, the one being filled, and the
        skills from the cache between them."""
        return (self._in_flight + 2) * CHUNK

    def __enter__(self) -> _Validation:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
        self._interrupt.__exit__(kind, error, trace)

    def add(self, found: Found) -> None:
        key = os.path.join(found.folder, found.skill_name)
        fingerprint = found.fingerprint
        cache = self.cache
        cached = cache.get(key, fingerprint) if cache is not None and fingerprint else None
        if cached is None:
            self._stale.append(found)
            if len(self._stale) >= CHUNK:
                self._flush()
        self._plan.append((key, fingerprint, cached))
        if len(self._plan) > self.peak:
            self.peak = len(self._plan)

    def _flush(self) -> None:
        if not self._stale:
            return
        stale, self._stale = self._stale, []
        self._interrupt.check()
        if self._pool is None and not self._pool_tried:
            if len(stale) + sum(len(found) for found, _ in self._chunks) < PARALLEL_MIN:
                self._chunks.append((stale, None))
                return
            self._pool_tried = True
            self._pool = _pool(self.niceness)
            if self._pool is not None:
                self._interrupt.__enter__()
                self._in_flight = _workers() * IN_FLIGHT_PER_WORKER
                self._chunks = deque(
                    (found, self._submit(found) if future is None else future)
                    for found, future in self._chunks
                )
        future = self._submit(stale) if self._pool is not None else None
        self._chunks.append((stale, future))

    def _submit(self, found: list[Found]) -> Future[list[tuple[Any, ...]]] | None:
        assert self._pool is not None
        try:
            return self._pool.submit(self.work, found, self.target)
        except BrokenProcessPool:
            # A worker died on an earlier chunk; that chunk is retried on its own in `_outcome`,
            # and the rest go to a fresh pool.
            self._pool.shutdown(cancel_futures=True)
            self._pool = _pool(self.niceness)
            if self._pool is None:
                return None
            return self._pool.submit(self.work, found, self.target)

    def _outcome(self, chunk: Chunk) -> list[tuple[Any, ...]]:
        found, future = chunk
        if future is None:
            return self.work(found, self.target)
        try:
            results = future.result()
        except BrokenProcessPool:
            self._interrupt.check()  # Ctrl+C ended the workers: no retry
            return _validate_isolated(found, self.target, self.work)
        self._interrupt.check()
        return results

    def ready(self) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """The skills at the front whose results are in, in the order added; waits for the
        oldest chunk only when too many are in flight. Without worker processes a full chunk
        is validated here, so a serial scan holds no more than a parallel one."""
        while self._plan:
            if self._plan[0][2] is None and not self._fresh:
                if not self._chunks:
                    return
                chunk = self._chunks[0]
                if chunk[1] is None and not self._pool_tried:
                    return  # too few yet to tell whether workers are worth starting
                waiting = chunk[1] is not None and not chunk[1].done()
                if waiting and len(self._chunks) <= self._in_flight:
                    return
                self._chunks.popleft()
                self._fresh.extend(self._outcome(chunk))
            yield self._next()

    def _next(self) -> tuple[str, tuple[Any, ...]]:
        key, fingerprint, cached = self._plan.popleft()
        if cached is None:
            cached = self._fresh.popleft()
            # A crash is not cached: the next scan tries the skill again.
            if self.store and self.cache is not None and fingerprint and not _is_crash(cached):
                self.cache.put(key, fingerprint, cached)
        return key, cached

    def entries(self) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """Each skill not yet handed out: its cache key and what `work` made of it (or the
        cache kept), in the order added, waiting for the workers as needed."""
        self._flush()
        while self._plan:
            if self._plan[0][2] is None and not self._fresh:
                self._fresh.extend(self._outcome(self._chunks.popleft()))
            yield self._next()


def _scan_zip(
    root: SkillRoot,
    cache: ScanCache | None,
    result: RootScan,
    on_entry: Callable[[tuple[Any, ...]], None],
    target: str,
) -> RootScan:
    path = root.path
    key = str(path)
    try:
        info = path.stat()
        fingerprint: Fingerprint = (info.st_size, info.st_mtime_ns)
        cached = cache.get(key, fingerprint) if cache is not None else None
        if cached is not None:
            summaries = [decode(path, item) for item in cached]
        else:
            summaries = [  # a summary keeps no fixes: the rules need not build them
                validate_skill(skill, target, fixes=False).summary(path)
                for skill in load_zip_skills(path)
            ]
            if cache is not None:
                cache.put(key, fingerprint, tuple(encode(s) for s in summaries))
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error, RuntimeError, ValueError) as exc:
        result.error = f"cannot read the archive {path}: {exc}"
        return result
    for summary in summaries:
        on_entry(encode(summary))
    return result


def duplicate_names(scans: list[RootScan]) -> dict[str, list[SkillSummary]]:
    """Names that more than one skill across all roots uses."""
    by_name: dict[str, list[SkillSummary]] = {}
    for scan in scans:
        for summary in scan.skills:
            if summary.name:
                by_name.setdefault(summary.name, []).append(summary)
    return {name: found for name, found in by_name.items() if len(found) > 1}


def duplicate_warning(name: str, others: list[str], skill_file_name: str) -> Diagnostic:
    """The SK301 warning of a skill named `name`, which the skills in the folders `others`
    (in the library's order) also use."""
    where = ", ".join(others[:3])
    return Diagnostic(
        codes.DUPLICATE_NAME, Severity.WARNING,
        f"another skill is also named `{name}` ({where}); an agent will see only one of them",
        file=skill_file_name, field="name",
    )


def mark_duplicates(scans: list[RootScan]) -> None:
    """Add an SK301 warning to every skill whose name another skill also uses."""
    duplicates = duplicate_names(scans)
    if not duplicates:
        return
    for scan in scans:
        for position, summary in enumerate(scan.skills):
            others = [s for s in duplicates.get(summary.name or "", []) if s is not summary]
            if not others:
                continue
            warning = duplicate_warning(
                summary.name or "", [str(other.directory) for other in others[:3]],
                summary.skill_file.name,
            )
            scan.skills[position] = summary.with_extra([warning])


def scan_library(
    roots: list[SkillRoot],
    cache: ScanCache | None = None,
    on_skill: Callable[[SkillSummary], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    target: str = SPEC,
) -> list[RootScan]:
    """Scan every root, mark duplicate names across them, and save the cache. A skill reached
    through a link from one root into another is listed once, in its real folder."""
    real = [os.path.realpath(root.path) for root in roots]
    scans: list[RootScan] = []
    shown: set[Path] = set()
    for position, root in enumerate(roots):
        others = tuple(path for at, path in enumerate(real) if at != position)
        scan = scan_root(root, cache, on_skill, cancelled, target, others)
        scan.skills = [s for s in scan.skills if s.directory not in shown]
        shown.update(s.directory for s in scan.skills)
        scans.append(scan)
    mark_duplicates(scans)
    if cache is not None:
        cache.save()
    return scans

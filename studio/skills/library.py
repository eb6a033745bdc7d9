"""Skill roots, discovery of the skills below them, and scanning with a cache.

A root is a folder searched recursively (skipping `.git`, `node_modules`, hidden folders unless
asked, and symlink loops) or a `.zip` archive of skills, which is read-only. A folder that holds a
SKILL.md is a skill; the search does not go further into it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

from studio.skills.cache import Fingerprint, ScanCache
from studio.skills.files import (
    MAX_DEPTH,
    SKIPPED_DIRS,
    Listing,
    load_skill_file,
    load_zip_skills,
    skill_file_in,
)
from studio.skills.model import Diagnostic, Severity
from studio.skills.stamps import Stamp
from studio.skills.summary import SkillSummary, cache_entry
from studio.skills.validate import validate_skill

STANDARD_PROJECT_LOCATIONS = (".agents/skills", ".claude/skills")
STANDARD_USER_LOCATIONS = ("~/.agents/skills", "~/.claude/skills", "~/.codex/skills")


def standard_locations(project: Path | None = None, home: Path | None = None) -> list[Path]:
    """The places agents look for skills, for the app to offer as roots (existing or not)."""
    home = home if home is not None else Path.home()
    found: list[Path] = []
    if project is not None:
        found.extend(project / rel for rel in STANDARD_PROJECT_LOCATIONS)
    found.extend(home / rel[2:] for rel in STANDARD_USER_LOCATIONS)
    return found


@dataclass(frozen=True, slots=True)
class SkillRoot:
    path: Path
    include_hidden: bool = False

    @property
    def is_zip(self) -> bool:
        return self.path.suffix.lower() == ".zip" and not self.path.is_dir()

    @property
    def read_only(self) -> bool:
        return self.is_zip


@dataclass(slots=True)
class RootScan:
    """What scanning one root found: its skills, and what went wrong reading it.

    `walk` lists each skill folder with its SKILL.md's name and fingerprint, and `folders` the
    stamps of the other folders the walk read: together, everything the scan's findings depend
    on."""

    root: SkillRoot
    skills: list[SkillSummary] = field(default_factory=list)
    error: str | None = None
    walk: list[Found] = field(default_factory=list)
    folders: list[Stamp] = field(default_factory=list)


class Found(NamedTuple):
    """A skill folder the walk found.

    Attributes:
        folder: its path.
        skill_name: its SKILL.md's name (`SKILL.md` or `skill.md`).
        fingerprint: the stamps of what its validation depends on (see `_fingerprint`); empty
            when they could not be read.
        listing: the folder's entries, as (name, is a folder), sorted; None when unread.
            Validation lists the skill's files from it without reading the folder again.
    """

    folder: str
    skill_name: str
    fingerprint: Fingerprint
    listing: Listing | None


def _fingerprint(
    folder: str, info: os.stat_result, entries: list[os.DirEntry[str]], skill_name: str
) -> tuple[Fingerprint, Listing]:
    """What a skill's validation depends on, cheaply, and the folder's entries.

    The fingerprint is the stamp (path, size, mtime, mode) of the skill's folder, of SKILL.md, of
    every folder below it that validation lists (a folder's mtime changes when a file is added,
    removed or renamed in it) and of every file under `scripts/`, whose mode and first line the
    rules read. What it misses is a file rewritten in place elsewhere, which no rule looks into."""
    parts: list[Stamp] = [(folder, info.st_size, info.st_mtime_ns, info.st_mode)]
    listing: list[tuple[str, bool]] = []
    for entry in entries:
        name = entry.name
        is_dir = entry.is_dir(follow_symlinks=False)
        listing.append((name, is_dir))
        if name == skill_name:
            found = entry.stat()
            parts.append((entry.path, found.st_size, found.st_mtime_ns, found.st_mode))
        elif is_dir and name not in SKIPPED_DIRS:
            _stamp_folder(entry, 1, name == "scripts", parts)
    listing.sort()
    return tuple(parts), tuple(listing)


def _stamp_folder(entry: os.DirEntry[str], depth: int, scripts: bool, parts: list[Stamp]) -> None:
    """Stamp a folder inside a skill, the folders below it as deep as validation lists them, and,
    under `scripts/`, every file."""
    found = entry.stat(follow_symlinks=False)
    parts.append((entry.path, found.st_size, found.st_mtime_ns, found.st_mode))
    if depth >= MAX_DEPTH and not scripts:
        return
    try:
        with os.scandir(entry.path) as listing:
            children = sorted(listing, key=_name)
    except OSError:
        return  # validation cannot list it either; its own stamp still tells when that changes
    for child in children:
        if child.is_dir(follow_symlinks=False):
            if depth < MAX_DEPTH and child.name not in SKIPPED_DIRS:
                _stamp_folder(child, depth + 1, scripts, parts)
        elif scripts:
            try:
                found = child.stat()
            except OSError:  # a link to nothing: its own stamp
                found = child.stat(follow_symlinks=False)
            parts.append((child.path, found.st_size, found.st_mtime_ns, found.st_mode))


_name = attrgetter("name")


def _walk(root: Path, include_hidden: bool, folders: list[Stamp] | None = None) -> Iterator[Found]:
    """Every skill folder below `root`, in a stable order, reading each folder once. The stamps
    of the other folders read go to `folders`."""
    seen: set[tuple[int, int]] = set()
    stack = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            info = os.stat(folder)
            identity = (info.st_dev, info.st_ino)
            if identity in seen:
                continue
            seen.add(identity)
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=_name, reverse=True)
        except OSError:
            continue
        skill_name = skill_file_in([entry.name for entry in entries])
        if skill_name is not None:
            try:
                yield Found(folder, skill_name, *_fingerprint(folder, info, entries, skill_name))
            except OSError:
                yield Found(folder, skill_name, (), None)
            continue
        if folders is not None:
            folders.append((folder, info.st_size, info.st_mtime_ns, info.st_mode))
        for entry in entries:
            if entry.name in SKIPPED_DIRS or (entry.name.startswith(".") and not include_hidden):
                continue
            try:
                if entry.is_dir():
                    stack.append(entry.path)
            except OSError:
                continue


def discover(
    root: Path, include_hidden: bool = False, folders: list[Stamp] | None = None
) -> Iterator[tuple[Path, str]]:
    """Yield (skill folder, SKILL.md file name) for every skill below `root`, in a stable order.
    The stamps of the other folders read go to `folders`."""
    for found in _walk(root, include_hidden, folders):
        yield Path(found.folder), found.skill_name


def scan_root(
    root: SkillRoot,
    cache: ScanCache | None = None,
    on_skill: Callable[[SkillSummary], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> RootScan:
    """Find and validate every skill under a root, using the cache where nothing changed."""
    result = RootScan(root)
    path = root.path
    if not path.exists():
        result.error = f"{path} does not exist"
        return result
    if root.is_zip:
        return _scan_zip(root, cache, result, on_skill)
    if not path.is_dir():
        result.error = f"{path} is neither a folder nor a .zip archive"
        return result
    complete = True
    seen: set[str] = set()
    with _Validation(root, cache) as validation:
        for item in _walk(path, root.include_hidden, result.folders):
            if cancelled is not None and cancelled():
                complete = False
                break
            result.walk.append(item)
            validation.add(item)
        for key, summary in validation.results() if complete else ():
            if cancelled is not None and cancelled():
                complete = False
                break
            seen.add(key)
            result.skills.append(summary)
            if on_skill is not None:
                on_skill(summary)
    if cache is not None and complete:
        cache.forget_missing(seen, str(path) + os.sep)
    return result


# Below this many skills to read, starting worker processes costs more than it saves.
PARALLEL_MIN = 64
CHUNK = 64


def _validate_folders(found: list[Found]) -> list[tuple[Any, ...]]:
    """Validate skills the walk found, in a worker process; summaries come back as cache tuples."""
    return [
        cache_entry(validate_skill(load_skill_file(Path(item.folder), item.skill_name, item.listing)))
        for item in found
    ]


def _pool() -> ProcessPoolExecutor | None:
    """Worker processes for a cold scan, when the process can fork safely (one thread, a
    platform with fork) and there is more than one core."""
    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or threading.active_count() > 1:
        return None
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return None
    return ProcessPoolExecutor(workers, mp_context=context)


class _Validation:
    """The skills of one scan, in order: from the cache where nothing changed, validated afresh
    where something did. Once PARALLEL_MIN skills need validating, they go in chunks to worker
    processes while the walk goes on, so the workers start before the walk ends."""

    def __init__(self, root: SkillRoot, cache: ScanCache | None) -> None:
        self.root = root
        self.cache = cache
        self._plan: list[tuple[str, Fingerprint, Any]] = []
        self._stale: list[Found] = []
        self._chunks: list[Future[list[tuple[Any, ...]]] | list[Found]] = []
        self._pool: ProcessPoolExecutor | None = None
        self._pool_tried = False

    def __enter__(self) -> _Validation:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

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

    def _flush(self) -> None:
        if not self._stale:
            return
        self._chunks.append(self._stale)
        self._stale = []
        if self._pool is None and not self._pool_tried:
            if sum(len(chunk) for chunk in self._chunks if isinstance(chunk, list)) < PARALLEL_MIN:
                return
            self._pool_tried = True
            self._pool = _pool()
        if self._pool is not None:
            self._chunks = [
                self._pool.submit(_validate_folders, chunk) if isinstance(chunk, list) else chunk
                for chunk in self._chunks
            ]

    def results(self) -> Iterator[tuple[str, SkillSummary]]:
        """Each skill's cache key (its SKILL.md's path) and summary, in the order added."""
        self._flush()
        fresh: Iterator[tuple[Any, ...]] = (
            item
            for chunk in self._chunks
            for item in (chunk.result() if isinstance(chunk, Future) else _validate_folders(chunk))
        )
        for key, fingerprint, cached in self._plan:
            if cached is None:
                cached = next(fresh)
                if self.cache is not None and fingerprint:
                    self.cache.put(key, fingerprint, cached)
            yield key, SkillSummary.from_cache(self.root.path, cached)


def _scan_zip(
    root: SkillRoot,
    cache: ScanCache | None,
    result: RootScan,
    on_skill: Callable[[SkillSummary], None] | None,
) -> RootScan:
    path = root.path
    key = str(path)
    try:
        info = path.stat()
        fingerprint: Fingerprint = (info.st_size, info.st_mtime_ns)
        cached = cache.get(key, fingerprint) if cache is not None else None
        if cached is not None:
            summaries = [SkillSummary.from_cache(path, item) for item in cached]
        else:
            summaries = [
                SkillSummary.from_result(path, validate_skill(skill))
                for skill in load_zip_skills(path)
            ]
            if cache is not None:
                cache.put(key, fingerprint, tuple(s.to_cache() for s in summaries))
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError) as exc:
        result.error = f"cannot read the archive {path}: {exc}"
        return result
    for summary in summaries:
        result.skills.append(summary)
        if on_skill is not None:
            on_skill(summary)
    return result


def duplicate_names(scans: list[RootScan]) -> dict[str, list[SkillSummary]]:
    """Names that more than one skill across all roots uses."""
    by_name: dict[str, list[SkillSummary]] = {}
    for scan in scans:
        for summary in scan.skills:
            if summary.name:
                by_name.setdefault(summary.name, []).append(summary)
    return {name: found for name, found in by_name.items() if len(found) > 1}


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
            where = ", ".join(str(other.directory) for other in others[:3])
            warning = Diagnostic(
                "SK301", Severity.WARNING,
                f"another skill is also named `{summary.name}` ({where}); "
                "an agent will see only one of them",
                file=summary.skill_file.name, field="name",
            )
            scan.skills[position] = summary.with_extra([warning])


def scan_library(
    roots: list[SkillRoot],
    cache: ScanCache | None = None,
    on_skill: Callable[[SkillSummary], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[RootScan]:
    """Scan every root, mark duplicate names across them, and save the cache."""
    scans = [scan_root(root, cache, on_skill, cancelled) for root in roots]
    mark_duplicates(scans)
    if cache is not None:
        cache.save()
    return scans

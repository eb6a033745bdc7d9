"""What a run wrote: a snapshot of the folders it could write (names, types, sizes, modes, times
and inodes) taken before and after, and the difference: created, changed, deleted.

A snapshot, not an overlay: bubblewrap's overlay options came in 0.9 (Debian 12 ships 0.8) and
need an unprivileged overlayfs (kernel 5.11 or later), and macOS has none; a snapshot works
wherever the studio does, sandboxed or not. It is bounded: past `MAX_ENTRIES` entries the
snapshot stops and says so (what lies past it is unknown, never "unchanged"). The files a run may
not land unseen (`studio.agent.held`) are also copied before the run, when small enough, so that
a changed one can be put back once the run's version is held (`studio.agent.holding`).

A content change that keeps the size, the mtime, the ctime and the inode cannot be made by an
ordinary program (the kernel sets ctime on every write), so the stat fields are enough.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from studio.agent.held import held_reason

MAX_ENTRIES = 200_000
# Copies kept before a run of the files `held_reason` names, so a changed one can be restored.
MAX_BACKUP_FILE = 1024 * 1024
MAX_BACKUP_TOTAL = 16 * 1024 * 1024
# How many paths of each kind an event and the audit log list; the rest are counted.
MAX_LISTED = 500


@dataclass(frozen=True, slots=True)
class Entry:
    """One name in a snapshot: its type ("file", "dir", "link", "other") and its stat fields."""

    kind: str
    size: int
    mode: int
    mtime_ns: int
    ctime_ns: int
    inode: int

    def differs(self, other: Entry) -> bool:
        if self.kind != other.kind or self.inode != other.inode or self.mode != other.mode:
            return True
        # A folder's times change whenever a name inside it does: those names are reported.
        return self.kind != "dir" and (self.size, self.mtime_ns, self.ctime_ns) != (
            other.size, other.mtime_ns, other.ctime_ns)


def _entry(status: os.stat_result) -> Entry:
    mode = status.st_mode
    kind = ("file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode)
            else "link" if stat.S_ISLNK(mode) else "other")
    return Entry(kind, status.st_size, stat.S_IMODE(mode), status.st_mtime_ns,
                 status.st_ctime_ns, status.st_ino)


@dataclass(slots=True)
class Snapshot:
    """The names under `tops` (absolute paths) with their `Entry`; `complete` is False when the
    walk stopped at the cap or could not read a folder (`unreadable`). `backups` holds the bytes
    of the held-named files, as they were."""

    tops: tuple[Path, ...]
    entries: dict[Path, Entry] = field(default_factory=dict)
    complete: bool = True
    unreadable: list[Path] = field(default_factory=list)
    backups: dict[Path, bytes] = field(default_factory=dict)

    def top_of(self, path: Path) -> Path:
        return next(top for top in self.tops if path.is_relative_to(top))


def _skipped(folder: Path) -> bool:
    """A repository's object store: data no tool runs, often huge; the rest of `.git` is walked."""
    return folder.name == "objects" and folder.parent.name.casefold() == ".git"


def take(folders: Iterable[Path], *, limit: int = MAX_ENTRIES, backups: bool = True) -> Snapshot:
    """A snapshot of `folders` (resolved, each top taken once), of at most `limit` entries."""
    tops = tuple(dict.fromkeys(folder.resolve() for folder in folders))
    tops = tuple(top for top in tops
                 if not any(top != outer and top.is_relative_to(outer) for outer in tops))
    shot = Snapshot(tops)
    pending = [top for top in tops if top.is_dir()]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                children = list(listing)
        except OSError:
            shot.complete = False
            shot.unreadable.append(folder)
            continue
        for child in children:
            if len(shot.entries) >= limit:
                shot.complete = False
                return shot
            path = Path(child.path)
            try:
                entry = _entry(child.stat(follow_symlinks=False))
            except OSError:
                continue
            shot.entries[path] = entry
            if entry.kind == "dir" and not _skipped(path):
                pending.append(path)
    if backups:
        _back_up(shot)
    return shot


def _back_up(shot: Snapshot) -> None:
    total = 0
    for path, entry in shot.entries.items():
        if entry.kind != "file" or entry.size > MAX_BACKUP_FILE:
            continue
        if held_reason(path.relative_to(shot.top_of(path)).parts) is None:
            continue
        if total + entry.size > MAX_BACKUP_TOTAL:
            return
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_BACKUP_FILE + 1)
        except OSError:
            continue
        shot.backups[path] = data
        total += len(data)


@dataclass(frozen=True, slots=True)
class Change:
    """A held path: `kind` "created" or "changed" (`entry` is what the run left), and why."""

    path: Path
    kind: str
    reason: str
    is_dir: bool


@dataclass(frozen=True, slots=True)
class Difference:
    """What a run wrote, as full sets of paths, and which of them must be held back."""

    created: frozenset[Path]
    changed: frozenset[Path]
    deleted: frozenset[Path]
    held: tuple[Change, ...]
    complete: bool


def compare(before: Snapshot, after: Snapshot) -> Difference:
    """The difference between two snapshots of the same folders, and the held paths: for each
    created or changed path that `held_reason` names, the highest created folder from the part
    that made it held (a new `.git` whole), else the path itself."""
    created = frozenset(p for p in after.entries if p not in before.entries)
    changed = frozenset(p for p, entry in after.entries.items()
                        if p in before.entries and before.entries[p].differs(entry))
    deleted = frozenset(p for p in before.entries if p not in after.entries)
    # Past the cap of either walk, a name missing from one side is unknown, not created/deleted.
    if not before.complete or not after.complete:
        created = frozenset(p for p in created if before.complete)
        deleted = frozenset(p for p in deleted if after.complete)
    units: dict[Path, Change] = {}
    for path in sorted(created | changed, key=lambda p: len(p.parts)):
        if any(path.is_relative_to(unit) for unit in units):
            continue
        top = after.top_of(path)
        parts = path.relative_to(top).parts
        found = held_reason(parts)
        if found is None:
            continue
        index, reason = found
        unit = path
        for length in range(index + 1, len(parts) + 1):
            candidate = top.joinpath(*parts[:length])
            if candidate in created:
                unit = candidate
                break
        kind = "created" if unit in created else "changed"
        units[unit] = Change(unit, kind, reason, after.entries[unit].kind == "dir")
    return Difference(created, changed, deleted, tuple(units[path] for path in sorted(units)),
                      before.complete and after.complete)


def outermost(paths: Iterable[Path]) -> list[Path]:
    """`paths` without those inside another of them, sorted: a new folder once, not each file."""
    ordered = sorted(paths)
    kept: list[Path] = []
    for path in ordered:
        if kept and path.is_relative_to(kept[-1]):
            continue
        kept.append(path)
    return kept

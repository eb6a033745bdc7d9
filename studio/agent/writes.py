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
    """The names under `tops` (absolute paths, as strings: a walk of 200,000 names must not
    build 200,000 `Path`s) with their `Entry`; `complete` is False when the walk stopped at the
    cap or could not read a folder (`unreadable`). `held` holds the names `held_reason` names,
    `backups` the bytes of those that are files, as they were."""

    tops: tuple[str, ...]
    entries: dict[str, Entry] = field(default_factory=dict)
    complete: bool = True
    unreadable: list[str] = field(default_factory=list)
    held: dict[str, tuple[int, str]] = field(default_factory=dict)
    backups: dict[str, bytes] = field(default_factory=dict)

    def top_of(self, path: str) -> str:
        return next(top for top in self.tops if inside(path, top))


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies in it (strings: no `Path` per name)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _skipped(folder: str, name: str) -> bool:
    """A repository's object store: data no tool runs, often huge; the rest of `.git` is walked."""
    return name == "objects" and os.path.basename(os.path.dirname(folder)).casefold() == ".git"


def take(folders: Iterable[Path], *, limit: int = MAX_ENTRIES, backups: bool = True,
         ignore: frozenset[str] = frozenset()) -> Snapshot:
    """A snapshot of `folders` (resolved, each top taken once), of at most `limit` entries,
    without the paths in `ignore` (the studio's own audit log, which it writes during a run)."""
    resolved = tuple(dict.fromkeys(str(folder.resolve()) for folder in folders))
    tops = tuple(top for top in resolved
                 if not any(top != outer and inside(top, outer) for outer in resolved))
    shot = Snapshot(tops)
    # Each folder with the parts below its top, so a name's `held_reason` is known as it is met.
    pending: list[tuple[str, tuple[str, ...]]] = [(top, ()) for top in tops if os.path.isdir(top)]
    while pending:
        folder, parts = pending.pop()
        try:
            with os.scandir(folder) as listing:
                children = list(listing)
        except OSError:
            shot.complete = False
            shot.unreadable.append(folder)
            continue
        above = shot.held.get(folder)
        for child in children:
            if len(shot.entries) >= limit:
                shot.complete = False
                return _backed_up(shot, backups)
            try:
                entry = _entry(child.stat(follow_symlinks=False))
            except OSError:
                continue
            path, names = child.path, (*parts, child.name)
            if path in ignore:
                continue
            shot.entries[path] = entry
            held = above if above is not None else held_reason(names[-1:])
            if held is not None:
                shot.held[path] = held if above is not None else (len(parts), held[1])
            if entry.kind == "dir" and not _skipped(path, child.name):
                pending.append((path, names))
    return _backed_up(shot, backups)


def _backed_up(shot: Snapshot, backups: bool) -> Snapshot:
    if not backups:
        return shot
    total = 0
    for path in shot.held:
        entry = shot.entries[path]
        if entry.kind != "file" or entry.size > MAX_BACKUP_FILE:
            continue
        if total + entry.size > MAX_BACKUP_TOTAL:
            break
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_BACKUP_FILE + 1)
        except OSError:
            continue
        shot.backups[path] = data
        total += len(data)
    return shot


@dataclass(frozen=True, slots=True)
class Change:
    """A held path: `kind` "created" or "changed", and why."""

    path: str
    kind: str
    reason: str
    is_dir: bool


@dataclass(frozen=True, slots=True)
class Difference:
    """What a run wrote, as full sets of paths, and which of them must be held back."""

    created: frozenset[str]
    changed: frozenset[str]
    deleted: frozenset[str]
    held: tuple[Change, ...]
    complete: bool


def compare(before: Snapshot, after: Snapshot) -> Difference:
    """The difference between two snapshots of the same folders, and the held paths: for each
    created or changed path that `held_reason` names, the highest created folder from the part
    that made it held (a new `.git` whole), else the path itself."""
    old, new = before.entries, after.entries
    created = frozenset(new.keys() - old.keys())
    deleted = frozenset(old.keys() - new.keys())
    changed = frozenset(p for p, entry in new.items() if p in old and old[p].differs(entry))
    # Past the cap of either walk, a name missing from one side is unknown, not created/deleted.
    if not before.complete or not after.complete:
        created = created if before.complete else frozenset()
        deleted = deleted if after.complete else frozenset()
    units: dict[str, Change] = {}
    candidates = [p for p in after.held if p in created or p in changed]
    for path in sorted(candidates, key=lambda p: p.count("/")):
        if any(inside(path, unit) for unit in units):
            continue
        top = after.top_of(path)
        parts = path[len(top):].strip("/").split("/")
        index, reason = after.held[path]
        unit = path
        for length in range(index + 1, len(parts) + 1):
            candidate = os.path.join(top, *parts[:length])
            if candidate in created:
                unit = candidate
                break
        kind = "created" if unit in created else "changed"
        units[unit] = Change(unit, kind, reason, new[unit].kind == "dir")
    return Difference(created, changed, deleted, tuple(units[p] for p in sorted(units, key=_key)),
                      before.complete and after.complete)


def _key(path: str) -> list[str]:
    """Sorts a folder right before what it holds (`a`, `a/b`, `a-c`)."""
    return path.split("/")


def outermost(paths: Iterable[str]) -> list[str]:
    """`paths` without those inside another of them, sorted: a new folder once, not each file."""
    kept: list[str] = []
    for path in sorted(paths, key=_key):
        if kept and inside(path, kept[-1]):
            continue
        kept.append(path)
    return kept

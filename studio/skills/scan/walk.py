"""Finding the skills below a root: a folder that holds a SKILL.md is a skill, and the search
does not go further into it. Each skill comes with its fingerprint (the stamps of everything its
validation reads) and its folder's listing, read once for both.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from operator import attrgetter
from pathlib import Path
from typing import Literal, NamedTuple

import studio.skills.codes as codes
from studio.skills.files import (
    MAX_DEPTH,
    SKIPPED_DIRS,
    VENV_MARKER,
    Listing,
    is_inside,
    listing_of,
    may_follow,
    skill_file_in,
    walks_into,
)
from studio.skills.model import RootNotice
from studio.skills.scan.cache import Fingerprint
from studio.skills.scan.stamps import Stamp


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
    for entry in entries:
        name = entry.name
        is_dir = entry.is_dir(follow_symlinks=False)
        if name == skill_name:
            found = entry.stat()
            parts.append((entry.path, found.st_size, found.st_mtime_ns, found.st_mode))
        elif is_dir and name not in SKIPPED_DIRS:
            _stamp_folder(entry, 1, name == "scripts", parts)
    return tuple(parts), listing_of(entries)


def stamp_skill(found: Found) -> Found:
    """`found`, walked without fingerprints, with the fingerprint `walk_skills` gives with
    "full", and its folder's listing read again with it: what is validated is what it stamps."""
    try:
        info = os.stat(found.folder)
        with os.scandir(found.folder) as listing:
            entries = sorted(listing, key=_name, reverse=True)  # in the walk's order
        fingerprint, entries_read = _fingerprint(found.folder, info, entries, found.skill_name)
    except OSError:
        return found._replace(fingerprint=(), listing=None)
    return found._replace(fingerprint=fingerprint, listing=entries_read)


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


# A folder's mtime is trusted to tell that its entries changed only once it is this old: a
# file system may keep mtimes to the second (or two), so an entry added within the same tick
# as the listing would not change it.
MTIME_SLACK_NS = 3_000_000_000

# What a walk found in a folder, by the folder's (mtime, inode) then: (mtime, inode, skill file
# name or "", the folders it went into next, in order), or (mtime, inode, None, ()) for a
# virtual environment.
Memo = dict[str, tuple[int, int, str | None, tuple[str, ...]]]


# What a walk stamps of each skill it finds (see `walk_skills`).
Fingerprints = Literal["full", "skill-file", "none"]


class WalkMemo:
    """What each folder held when a walk last listed it, so that the next walk (with
    fingerprints "skill-file") lists again only the folders whose mtime changed: adding,
    removing or renaming an entry changes its folder's mtime. A folder holding a link is always
    listed again, since where a link leads can change without its folder changing.

    Attributes:
        kept: what the last walk found (from a cache); fresh: what this walk found."""

    def __init__(self, kept: Memo | None = None) -> None:
        self.kept: Memo = kept if kept is not None else {}
        self.fresh: Memo = {}


class Link(NamedTuple):
    """A link the walk followed to a folder: where it is and where it leads (resolved)."""

    path: str
    target: str


def walk_skills(
    root: Path,
    include_hidden: bool,
    folders: list[Stamp] | None = None,
    notices: list[RootNotice] | None = None,
    fingerprints: Fingerprints = "full",
    memo: WalkMemo | None = None,
    linked_roots: tuple[str, ...] = (),
    links: list[Link] | None = None,
    *,
    start: str | None = None,
    units: list[str] | None = None,
) -> Iterator[Found]:
    """Every skill folder below `root`, in a stable order, reading each folder once. The stamps
    of the other folders read go to `folders`.

    A skill's fingerprint is, with "full", the stamps of everything its validation reads (see
    `_fingerprint`); with "skill-file", only its SKILL.md's stamp, without the listing: enough
    for what SKILL.md alone decides (`studio.skills.scan.headers`), and a `memo` then spares listing
    the folders that did not change (see `WalkMemo`); with "none", nothing (a scan that keeps
    no cache): stamping every folder in every skill costs about as much as listing it.

    Links to folders are followed where `may_follow` allows (inside `root`, into another root
    of `linked_roots`, into a client's skill folder), and the walk goes on in the folder they
    lead to, by its resolved path: a skill reached through a link is found once, in its real
    folder, whichever way the walk reaches it first (each folder is read once, so a link cycle
    ends); each link followed goes to `links`. A link that leads anywhere else, to a folder or
    as a SKILL.md, is not followed and goes to `notices`.

    The walk can be split by the folders just below the root (`studio.skills.scan.units`): with
    `units`, only the root is read, and the folders the walk would go into next go to `units`
    in the order it would take them (a root that is a skill is yielded as such); with `start`,
    the walk is that part alone, from one of those folders, judged as part of `root`."""
    # Each folder read, as one int of its device and inode: a tuple of two per folder held
    # 20 MB more on 100,000 skills.
    seen: set[int] = set()
    real_root: str | None = None
    stack = [start if start is not None else str(root)]
    if fingerprints != "skill-file":
        memo = None
    trusted = time.time_ns() - MTIME_SLACK_NS
    while stack:
        folder = stack.pop()
        try:
            info = os.stat(folder)
            identity = info.st_dev << 64 | info.st_ino
            if identity in seen:
                continue
            seen.add(identity)
            kept = memo.kept.get(folder) if memo is not None else None
            if kept is not None and kept[0] == info.st_mtime_ns and kept[1] == info.st_ino:
                assert memo is not None
                memo.fresh[folder] = kept
                if kept[2]:
                    yield _light(folder, kept[2])
                else:
                    if folders is not None:
                        folders.append((folder, info.st_size, info.st_mtime_ns, info.st_mode))
                    stack.extend(kept[3])
                continue
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=_name, reverse=True)
        except OSError as exc:
            _report_unreadable(folder, exc, notices, folders)
            continue
        names = [entry.name for entry in entries]
        keep = memo is not None and info.st_mtime_ns < trusted and not any(
            entry.is_symlink() for entry in entries
        )
        if VENV_MARKER in names and folder != str(root):
            # A virtual environment: installed packages, never the user's skills. Its stamp
            # tells a rescan when it stops being one.
            if folders is not None:
                folders.append((folder, info.st_size, info.st_mtime_ns, info.st_mode))
            if keep:
                assert memo is not None
                memo.fresh[folder] = (info.st_mtime_ns, info.st_ino, None, ())
            continue
        skill_name = skill_file_in(names)
        if skill_name is not None:
            skill_file = next(entry for entry in entries if entry.name == skill_name)
            if keep:
                assert memo is not None
                memo.fresh[folder] = (info.st_mtime_ns, info.st_ino, skill_name, ())
            if skill_file.is_symlink():
                if real_root is None:
                    real_root = os.path.realpath(root)
                target = os.path.realpath(skill_file.path)
                if not may_follow(target, real_root, linked_roots):
                    if notices is not None:
                        notices.append(_link_out(skill_file.path, target, root))
                    if folders is not None:  # the link may be fixed: then this folder changes
                        folders.append((folder, info.st_size, info.st_mtime_ns, info.st_mode))
                    continue
            if fingerprints == "skill-file":
                yield _light(folder, skill_name)
                continue
            if fingerprints == "none":
                yield Found(folder, skill_name, (), listing_of(entries))
                continue
            try:
                yield Found(folder, skill_name, *_fingerprint(folder, info, entries, skill_name))
            except OSError:
                yield Found(folder, skill_name, (), None)
            continue
        if folders is not None:
            folders.append((folder, info.st_size, info.st_mtime_ns, info.st_mode))
        pushed = len(stack)
        for entry in entries:
            if not walks_into(entry.name, include_hidden):
                continue
            try:
                if not entry.is_dir():
                    continue
                if entry.is_symlink():
                    if real_root is None:
                        real_root = os.path.realpath(root)
                    target = os.path.realpath(entry.path)
                    if not may_follow(target, real_root, linked_roots):
                        if notices is not None:
                            notices.append(_link_out(entry.path, target, root))
                        continue
                    if is_inside(target, real_root):  # shown under the root as the user named it
                        target = str(root) + target[len(real_root.rstrip(os.sep)):]
                    if links is not None:
                        links.append(Link(entry.path, target))
                    stack.append(target)
                    continue
                stack.append(entry.path)
            except OSError:
                continue
        if keep:
            assert memo is not None
            memo.fresh[folder] = (info.st_mtime_ns, info.st_ino, "", tuple(stack[pushed:]))
        if units is not None:
            units.extend(reversed(stack))
            return


def _report_unreadable(
    folder: str, exc: OSError, notices: list[RootNotice] | None, folders: list[Stamp] | None
) -> None:
    """A folder the walk could not list (permission denied, an I/O error) becomes a notice;
    one that vanished meanwhile does not. Its stamp is kept, so a cached report is redone once
    its mode changes."""
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        return
    if notices is not None:
        notices.append(RootNotice(
            codes.FOLDER_UNREADABLE, folder,
            f"this folder cannot be listed ({exc.strerror or exc}); the skills in it were not "
            "checked. Give this user read and execute permission on it, or remove it",
        ))
    if folders is not None:
        with contextlib.suppress(OSError):
            info = os.stat(folder)
            folders.append((folder, info.st_size, info.st_mtime_ns, info.st_mode))


def _light(folder: str, skill_name: str) -> Found:
    """A skill the walk found with fingerprints "skill-file": its SKILL.md's stamp, without a
    listing."""
    path = os.path.join(folder, skill_name)
    try:
        found = os.stat(path)
    except OSError:
        return Found(folder, skill_name, (), None)
    return Found(folder, skill_name, ((path, found.st_size, found.st_mtime_ns, found.st_mode),), None)


def _link_out(path: str, target: str, root: Path) -> RootNotice:
    return RootNotice(
        codes.LINK_OUT_OF_ROOT, path,
        f"a link to {target}, outside {root}, another root and the clients' skill folders; not "
        f"followed. Add {target} as a root of its own to check the skills there",
    )


def discover(
    root: Path,
    include_hidden: bool = False,
    folders: list[Stamp] | None = None,
    notices: list[RootNotice] | None = None,
) -> Iterator[tuple[Path, str]]:
    """Yield (skill folder, SKILL.md file name) for every skill below `root`, in a stable order.
    The stamps of the other folders read go to `folders`, links not followed to `notices`."""
    for found in walk_skills(root, include_hidden, folders, notices):
        yield Path(found.folder), found.skill_name

"""A cold scan split by the folders just below a root (a collection's repositories): each
worker process walks whole folders, validates the skills in them and renders their part of the
caller's report itself, so the scanning process neither lists every skill folder nor builds an
object per skill; it only writes the finished pieces in order.

The walk of a folder by a worker is the walk of the root restricted to it (`walk_skills` with
`start`), so the skills come in the same order. Only a link the walk follows could make the
parts overlap (a skill reached through a link is found once, in whichever part the whole walk
reaches it first); a part that follows a link out of itself makes the root be scanned again the
ordinary way (`scan_entries`), its pieces so far given up (`PieceSink.rewind`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from studio.skills.clients import SPEC
from studio.skills.files import is_inside
from studio.skills.model import RootNotice
from studio.skills.scan.entries import CheckedSkill, checked_entry
from studio.skills.scan.interrupts import DeferredInterrupt
from studio.skills.scan.roots import (
    IN_FLIGHT_PER_WORKER,
    RootScan,
    SkillRoot,
    _check_folder,
    _pool,
    _validate_isolated,
    _workers,
    scan_entries,
)
from studio.skills.scan.stamps import Stamp
from studio.skills.scan.walk import Found, Link, walk_skills

Piece = TypeVar("Piece")
# What a worker renders a batch of skills into: a module-level function (or a partial of one),
# so that a forked worker finds it.
Render = Callable[[list[CheckedSkill]], Piece]

# Below this many folders under the root, splitting gains little: the ordinary scan, which
# hands single skills to workers, keeps every core busy.
UNITS_MIN = 16
# Skills a task aims at: enough that handing it over costs little beside its work, few enough
# that the pieces waiting in the scanning process stay small.
SKILLS_PER_TASK = 128
FIRST_UNITS_PER_TASK = 8


class PieceSink(Protocol[Piece]):  # type: ignore[misc]
    """Where a split scan's pieces go, in order."""

    def add_piece(self, piece: Piece) -> None: ...

    def mark(self) -> None:
        """Remember where the pieces of a root start."""

    def rewind(self) -> None:
        """Forget every piece since the last `mark`."""


class _Done(NamedTuple, Generic[Piece]):
    """What a worker sends back for a batch of folders."""

    piece: Piece | None  # None when `escaped`
    skills: int
    folders: list[Stamp]
    notices: list[RootNotice]
    escaped: bool  # a link it followed leads out of the folder it was in


def _walk(
    units: list[str], root: SkillRoot, linked_roots: tuple[str, ...]
) -> tuple[list[Found], list[Stamp], list[RootNotice], bool]:
    """The skills below `units`, the stamps of the other folders read, the links not
    followed, and whether a link followed leads out of the unit it is in."""
    found: list[Found] = []
    folders: list[Stamp] = []
    notices: list[RootNotice] = []
    links: list[Link] = []
    for unit in units:
        first = len(links)
        found.extend(walk_skills(root.path, root.include_hidden, folders, notices, "none",
                                 linked_roots=linked_roots, links=links, start=unit))
        if any(not is_inside(link.target, unit) for link in links[first:]):
            return found, folders, notices, True
    return found, folders, notices, False


def walk_units(
    units: list[str], root: SkillRoot, target: str, linked_roots: tuple[str, ...],
    render: Render[Piece],
) -> _Done[Piece]:
    """A worker's task: walk `units`, validate their skills and render them."""
    found, folders, notices, escaped = _walk(units, root, linked_roots)
    if escaped:
        return _Done(None, 0, [], [], True)
    skills = [_check_folder(item, target) for item in found]
    return _Done(render(skills), len(skills), folders, notices, False)


def _walk_isolated(
    units: list[str], root: SkillRoot, target: str, linked_roots: tuple[str, ...],
    render: Render[Piece],
) -> _Done[Piece]:
    """`walk_units` of a batch whose worker died: walked here, each skill validated where a
    crash costs only itself (`_validate_isolated`)."""
    found, folders, notices, escaped = _walk(units, root, linked_roots)
    if escaped:
        return _Done(None, 0, [], [], True)
    skills = [checked_entry(entry) for entry in _validate_isolated(found, target)] if found else []
    return _Done(render(skills), len(skills), folders, notices, False)


def scan_split(
    root: SkillRoot,
    render: Render[Piece],
    sink: PieceSink[Piece],
    target: str = SPEC,
    linked_roots: tuple[str, ...] = (),
) -> tuple[RootScan, int]:
    """Scan a folder `root` without a cache, its skills going to `sink` as pieces `render`
    made, in the walk's order; give what the walk found of the root and the count of skills.
    Where splitting does not pay or cannot hold (few folders below the root, the root a skill,
    a link at its top, no worker processes), the ordinary scan runs and its skills are rendered
    here, in batches."""
    sink.mark()
    result = RootScan(root)
    units: list[str] = []
    head = list(walk_skills(root.path, root.include_hidden, result.folders, result.notices,
                            "none", linked_roots=linked_roots, links=result.links, units=units))
    pool = None if head or result.links or len(units) < UNITS_MIN else _pool()
    if pool is None:
        return _serial(root, render, sink, target, linked_roots)
    count = 0
    with pool, DeferredInterrupt() as interrupt:
        pending: deque[tuple[list[str], Future[_Done[Piece]]]] = deque()
        in_flight = _workers() * IN_FLIGHT_PER_WORKER // 4
        per_task = FIRST_UNITS_PER_TASK
        walked_units = 0
        position = 0

        def take(batch: list[str], future: Future[_Done[Piece]]) -> _Done[Piece]:
            try:
                done = future.result()
            except BrokenProcessPool:
                interrupt.check()  # Ctrl+C ended the workers: no retry
                return _walk_isolated(batch, root, target, linked_roots, render)
            interrupt.check()
            return done

        while position < len(units) or pending:
            while position < len(units) and len(pending) < in_flight:
                batch = units[position:position + per_task]
                position += len(batch)
                pending.append((batch, _submit(pool, batch, root, target, linked_roots, render)))
            batch, future = pending.popleft()
            done = take(batch, future)
            if done.escaped:
                pool.shutdown(cancel_futures=True)
                sink.rewind()
                return _serial(root, render, sink, target, linked_roots)
            assert done.piece is not None
            sink.add_piece(done.piece)
            result.folders.extend(done.folders)
            result.notices.extend(done.notices)
            count += done.skills
            walked_units += len(batch)
            # Sized by the skills a folder held so far: a flat root has one a folder, a
            # collection's repository several.
            per_task = max(1, min(256, SKILLS_PER_TASK * walked_units // max(count, 1)))
    return result, count


def _submit(
    pool: ProcessPoolExecutor, batch: list[str], root: SkillRoot, target: str,
    linked_roots: tuple[str, ...], render: Render[Piece],
) -> Future[_Done[Piece]]:
    try:
        return pool.submit(walk_units, batch, root, target, linked_roots, render)
    except BrokenProcessPool:  # a worker died on an earlier batch: this one is walked here
        future: Future[_Done[Piece]] = Future()
        future.set_result(_walk_isolated(batch, root, target, linked_roots, render))
        return future


def _serial(
    root: SkillRoot, render: Render[Piece], sink: PieceSink[Piece], target: str,
    linked_roots: tuple[str, ...],
) -> tuple[RootScan, int]:
    batch: list[CheckedSkill] = []
    count = 0

    def on_entry(entry: tuple[Any, ...]) -> None:
        nonlocal count, batch
        count += 1
        batch.append(checked_entry(entry))
        if len(batch) >= SKILLS_PER_TASK:
            sink.add_piece(render(batch))
            batch = []

    result = scan_entries(root, on_entry, None, target=target, linked_roots=linked_roots)
    if batch:
        sink.add_piece(render(batch))
    return result, count

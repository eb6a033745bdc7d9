"""Fixing every finding of one code across many skills as one step, and undoing that step.

Planning and writing go through the core fix API (`plan_fixes` / `apply_plan`), so each skill
gets its checks: the whole file read, the body kept, only the field of the fix changed, a file
edited meanwhile refused, nothing written through a link out of its root. What each write
replaced is kept, so the step can be undone file by file, atomically, skipping a file that
changed since (its new content is never overwritten).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from studio.fsutil import RefusedWrite, atomic_write_bytes
from studio.skills import SPEC
from studio.skills.checks import fixes


@dataclass(frozen=True, slots=True)
class Target:
    """A skill to fix: its folder, the root the user added (nothing is written outside), and
    the client the skill is judged for (`studio.skills.checks.clients`)."""

    directory: Path
    root: Path | None
    client: str = SPEC


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A skill the step does not change, and why (shown to the user)."""

    directory: Path
    reason: str


@dataclass(slots=True)
class BatchPlan:
    """What fixing one code everywhere would do.

    Attributes:
        code: the finding's code.
        plans: one per skill that changes, in the order asked.
        left_out: the skills that do not change, with the reason.
    """

    code: str
    plans: list[fixes.FixPlan] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One SKILL.md the step rewrote: `before` is what it held, `after` what was written."""

    directory: Path
    path: Path
    before: bytes
    after: bytes


@dataclass(slots=True)
class BatchResult:
    """What applying (or undoing) a step did: the files changed, and those left as they were."""

    changed: list[FileChange] = field(default_factory=list)
    failed: list[LeftOut] = field(default_factory=list)


def plan_one(target: Target, code: str, into: BatchPlan) -> None:
    """Plan the fixes of `code` in one skill and file the result in `into`."""
    try:
        plan = fixes.plan_fixes(target.directory, {code}, root=target.root, target=target.client)
    except fixes.FixError as exc:
        into.left_out.append(LeftOut(target.directory, str(exc)))
        return
    if plan.rename_to is not None:
        into.left_out.append(LeftOut(target.directory, "its fix renames the folder; open the "
                                     "skill and apply that fix there"))
        return
    if not plan.changes_anything:
        why = "; ".join(plan.refused) or f"no automatic fix of {code} applies to it"
        into.left_out.append(LeftOut(target.directory, why))
        return
    into.plans.append(plan)


def apply_one(plan: fixes.FixPlan, into: BatchResult) -> None:
    """Write one planned skill and remember what it held; a refusal is filed with its reason."""
    try:
        fixes.apply_plan(plan)
    except fixes.FixError as exc:
        into.failed.append(LeftOut(plan.skill_file.parent, str(exc)))
        return
    into.changed.append(FileChange(plan.skill_file.parent, Path(os.path.realpath(plan.skill_file)),
                                   plan.original.encode("utf-8"), plan.fixed.encode("utf-8")))


class _Changed(Exception):
    pass


def _read_regular(path: Path) -> bytes:
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise _Changed
        chunks = []
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def undo_one(change: FileChange, into: BatchResult) -> None:
    """Put back what `change` replaced, unless the file no longer holds what the step wrote."""
    def still_ours() -> None:
        if _read_regular(change.path) != change.after:
            raise _Changed

    try:
        still_ours()
        atomic_write_bytes(change.path, change.before, before_replace=still_ours, strict=True)
    except RefusedWrite as exc:
        into.failed.append(LeftOut(change.directory, str(exc)))
        return
    except (_Changed, FileNotFoundError):
        into.failed.append(LeftOut(change.directory, f"{change.path} changed since the fix, so "
                                   "it was left as it is"))
        return
    except OSError as exc:
        into.failed.append(LeftOut(change.directory, f"{change.path} could not be written: "
                                   f"{exc.strerror or exc}; it was left as it is"))
        return
    into.changed.append(change)


def undo_all(changes: Iterable[FileChange]) -> BatchResult:
    result = BatchResult()
    for change in changes:
        undo_one(change, result)
    return result

"""Planning and applying the machine-applicable fixes of a skill on disk.

Fixes are applied one at a time in memory, re-validating after each, so two fixes never fight over
the same bytes. Each result is parsed again and checked against what the fix meant to change: the
body stays as it was, the frontmatter still parses, and its data differs only in the field the fix
is about. A fix that fails that check, or makes no progress, is left out and the user is told why.
Only the characters a fix must change are rewritten, the whole file is read (the validator's read
cap does not apply) and it is written atomically, after checking that nobody changed it meanwhile.
"""

from __future__ import annotations

import difflib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import studio.skills.codes as codes
from studio.errors import StudioError
from studio.fsutil import RefusedWrite, atomic_write_bytes
from studio.skills.checks.validate import validate_skill
from studio.skills.clients import SPEC
from studio.skills.files import list_skill_files, load_skill, may_follow, skill_file_in
from studio.skills.model import Diagnostic, Fix, Severity, Skill
from studio.skills.parse import MAX_SKILL_BYTES, UNREADABLE_CODES, parse_skill
from studio.skills.yaml.yamledit import apply_edits

MAX_ROUNDS = 32
# `studio fix` holds a file and a few copies of it in memory; past this, it refuses.
MAX_FIX_BYTES = 64 * 1024 * 1024


class FixError(StudioError):
    """A fix could not be applied; the message says why and nothing was changed."""


@dataclass(slots=True)
class FixPlan:
    """What `studio fix` would do to one skill.

    Attributes:
        skill_file: the SKILL.md, as named (not resolved).
        original: its text as read.
        fixed: its text with every accepted fix applied.
        rename_to: the folder's new path, when a fix renames it.
        applied: "CODE: title" of each fix applied, in order.
        refused: "CODE: title: why" of each fix left out.
        remaining: the diagnostics of the fixed skill.
        root: the folder the user named; nothing outside it (after links) is written.
        stamp: (device, inode, size, mtime) of SKILL.md when it was read.
    """

    skill_file: Path
    original: str
    fixed: str
    rename_to: Path | None = None
    applied: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)
    root: Path | None = None
    stamp: tuple[int, int, int, int] | None = None

    @property
    def changes_anything(self) -> bool:
        return self.fixed != self.original or self.rename_to is not None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.remaining if d.severity is Severity.ERROR]

    def diff(self) -> str:
        target = self.rename_to / self.skill_file.name if self.rename_to else self.skill_file
        lines = list(
            difflib.unified_diff(
                self.original.splitlines(keepends=True),
                self.fixed.splitlines(keepends=True),
                fromfile=str(self.skill_file),
                tofile=str(target),
            )
        )
        text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
        if self.rename_to is not None:
            text += f"rename {self.skill_file.parent} -> {self.rename_to}\n"
        return text


def reparse(
    skill: Skill, text: str, directory: Path | None = None, *,
    max_bytes: int | None = MAX_SKILL_BYTES,
) -> Skill:
    directory = directory or skill.directory
    return parse_skill(
        text.encode("utf-8"), directory / skill.path.name, directory=directory,
        files=skill.files, read_only=skill.read_only, max_bytes=max_bytes,
    )


def apply_fix_to_text(skill: Skill, fix: Fix) -> str:
    return apply_edits(skill.source, fix.edits)


def fixes_json(
    skill_file: Path, target: str = SPEC
) -> dict[tuple[str, int, int, str | None, str], dict[str, Any]]:
    """The fixes a validation of `skill_file` offers, edits built, as `validate --with-fixes`
    prints them: keyed by each finding's (code, line, column, field, message). Offsets count
    characters of the file's text as decoded (a byte-order mark is one), not bytes."""
    skill = load_skill(skill_file)
    offered: dict[tuple[str, int, int, str | None, str], dict[str, Any]] = {}
    if skill.read_only:
        return offered
    for d in validate_skill(skill, target).diagnostics:
        if d.fix is None:
            continue
        data: dict[str, Any] = {
            "title": d.fix.title,
            "edits": [{"start": e.start, "end": e.end, "new_text": e.new_text}
                      for e in d.fix.edits],
        }
        if d.fix.rename_directory_to is not None:
            data["rename_folder_to"] = d.fix.rename_directory_to
        offered[(d.code, d.line, d.column, d.field, d.message)] = data
    return offered


def _stamp(info: os.stat_result) -> tuple[int, int, int, int]:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def _read_whole(path: Path) -> tuple[bytes, tuple[int, int, int, int]]:
    """All of a SKILL.md, and its stamp. Refuses what is not a regular file (a FIFO would block)
    and what is too large to rewrite."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise FixError(f"{path} is not a regular file; only a regular SKILL.md can be fixed")
        if info.st_size > MAX_FIX_BYTES:
            raise FixError(
                f"{path} is {info.st_size:,} bytes; studio fix rewrites files of up to "
                f"{MAX_FIX_BYTES // (1024 * 1024)} MiB. Move long material into references/."
            )
        chunks = []
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
            if sum(map(len, chunks)) > MAX_FIX_BYTES:
                raise FixError(f"{path} grew past {MAX_FIX_BYTES:,} bytes while it was read")
        return b"".join(chunks), _stamp(info)
    finally:
        os.close(descriptor)


def _load_whole(path: Path, root: Path | None) -> tuple[Skill, tuple[int, int, int, int] | None]:
    """The skill at `path` (folder or SKILL.md), its SKILL.md read in full; refused unread when
    it leads out of `root`."""
    if path.is_dir():
        try:
            file_name = skill_file_in(os.listdir(path))
        except OSError:
            file_name = None
        if file_name is None:
            return load_skill(path), None  # says why there is no SKILL.md to read
        directory = path
    else:
        directory, file_name = path.parent, path.name
    skill_file = directory / file_name
    reason = outside_root(skill_file, root)
    if reason is not None:
        raise FixError(reason)
    try:
        data, stamp = _read_whole(skill_file)
    except OSError as exc:
        raise FixError(f"cannot read {skill_file}: {exc.strerror or exc}") from exc
    files = list_skill_files(directory)
    return parse_skill(data, skill_file, directory=directory, files=files, max_bytes=None), stamp


def outside_root(skill_file: Path, root: Path | None) -> str | None:
    """Why a skill may not be written from `root`: its folder or SKILL.md leads, through a
    link, out of it to a place the library does not follow links into (see `may_follow`: a
    client's skill folder is one it does). None when it may."""
    if root is None:
        return None
    real_root = os.path.realpath(root)
    for what, path in (("folder", skill_file.parent), ("SKILL.md", skill_file)):
        real = os.path.realpath(path)
        if not may_follow(real, real_root):
            return (
                f"its {what} leads through a link to {real}, outside {root}; it was not "
                f"changed. Run studio fix on {real} itself to fix it there"
            )
    return None


def plan_fixes(
    path: Path, codes: set[str] | None = None, *, root: Path | None = None,
    fields: set[str] | None = None, target: str = SPEC,
) -> FixPlan:
    """Work out every fix for the skill at `path` (folder or SKILL.md) without writing anything.

    The one way to fix skills on disk, for `studio fix` and the GUI alike; `apply_plan` writes
    what it planned. `codes` and `fields` keep only the fixes of those codes and of findings
    about those fields ({"SK131"}, {"version"}: move every `version` under `metadata`). `root`
    is the folder the user asked to fix; a skill reached through a link out of it is refused.
    `target` is the client the skill is judged for (`studio.skills.checks.clients`): a field that
    client reads stays where it is."""
    path = Path(os.path.abspath(path))
    skill, stamp = _load_whole(path, root)
    if skill.read_only:
        raise FixError(f"{skill.directory} is inside an archive and cannot be changed")
    plan = FixPlan(skill.path, skill.source, skill.source, root=root, stamp=stamp)
    if not skill.source and skill.problems:
        plan.remaining = validate_skill(skill, target).diagnostics
        return plan
    _plan_rounds(plan, skill, codes, fields, target)
    return plan


def _plan_rounds(
    plan: FixPlan, skill: Skill, codes: set[str] | None, fields: set[str] | None, target: str
) -> None:
    first = skill
    seen = {(skill.source, skill.directory)}
    left_out: set[tuple[str, str]] = set()
    diagnostics: list[Diagnostic] = []
    for _ in range(MAX_ROUNDS):
        diagnostics = validate_skill(skill, target).diagnostics
        candidates = [
            d for d in diagnostics
            if d.fix is not None and (codes is None or d.code in codes)
            and (fields is None or d.field in fields)
            and (d.code, d.fix.title) not in left_out
        ]
        if not candidates:
            break
        diagnostic = candidates[0]
        fix = diagnostic.fix
        assert fix is not None
        directory = skill.directory
        if fix.rename_directory_to:
            directory = directory.parent / fix.rename_directory_to
        text = apply_fix_to_text(skill, fix)
        label = f"{diagnostic.code}: {fix.title}"
        if (text, directory) in seen:
            left_out.add((diagnostic.code, fix.title))
            plan.refused.append(f"{label}: not applied, it makes no progress")
            continue
        after = reparse(skill, text, directory, max_bytes=None)
        why = unplanned_change(skill, after, diagnostic)
        if why is not None:
            left_out.add((diagnostic.code, fix.title))
            plan.refused.append(f"{label}: not applied, {why}")
            continue
        seen.add((text, directory))
        plan.applied.append(label)
        if directory != skill.directory:
            plan.rename_to = directory
        skill = after
    else:
        diagnostics = validate_skill(skill, target).diagnostics
    if _unreadable(skill) and skill is not first:
        # Quoting fixes may each move a YAML error further down without ever removing the last.
        plan.refused.append(
            "the fixes leave the frontmatter unreadable, so none was applied: "
            + "; ".join(d.message for d in skill.problems if d.code in UNREADABLE_CODES)
        )
        plan.applied.clear()
        plan.rename_to = None
        skill = first
        diagnostics = validate_skill(skill, target).diagnostics
    plan.fixed = skill.source
    plan.remaining = diagnostics


def _unreadable(skill: Skill) -> bool:
    return any(d.code in UNREADABLE_CODES for d in skill.problems)


def _same(a: Any, b: Any) -> bool:
    # repr, because a NaN is never equal to itself.
    return bool(a == b) or repr(a) == repr(b)


# The findings whose fix moves their field under `metadata:` (for the spec, or for a target).
_MOVED_UNDER_METADATA = frozenset({codes.UNKNOWN_FIELD, codes.UNKNOWN_TO_TARGET})


def unplanned_change(before: Skill, after: Skill, diagnostic: Diagnostic) -> str | None:
    """Why `after` is not `before` with only the change `diagnostic`'s fix is for, or None."""
    if after.body != before.body:
        return "it would change the body"
    if before.frontmatter is None:
        # The fix of a frontmatter that does not parse: the data it was meant to hold is unknown.
        return None
    if after.frontmatter is None or _unreadable(after):
        problem = next((d.message for d in after.problems if d.code in UNREADABLE_CODES), "")
        return f"the result would not parse ({problem})"
    old, new = before.frontmatter.data, after.frontmatter.data
    key = diagnostic.field
    moves = diagnostic.code in _MOVED_UNDER_METADATA
    touched = {key, "metadata"} if moves else {key}
    for name in old.keys() | new.keys():
        if name not in touched and (name not in old or name not in new
                                    or not _same(old[name], new[name])):
            return f"it would also change `{name}`"
    if key is None:
        return None
    if not moves:
        return None if isinstance(new.get(key), str) else f"`{key}` would not become a string"
    old_meta = old.get("metadata") or {}
    new_meta = new.get("metadata")
    if key in new or not isinstance(old_meta, dict) or not isinstance(new_meta, dict):
        return f"`{key}` would not end up under `metadata`"
    moved = new_meta.get(key)
    rest = {name: value for name, value in new_meta.items() if name != key}
    if not isinstance(moved, str) or not _same(rest, old_meta) or (
        isinstance(old.get(key), str) and moved != old[key]
    ):
        return f"`metadata` would not hold `{key}` with its value as it was"
    return None


def _body_of(text: str, path: Path) -> str:
    return parse_skill(text.encode("utf-8"), path, max_bytes=None).body


def apply_plan(plan: FixPlan) -> None:
    """Write the fixed text (atomically) and rename the folder, refusing to overwrite anything.

    Whatever made the plan, a text whose body differs from the one read is never written. Right
    before the new file replaces the old one, the old one is read again and compared with what
    was planned from: a change in between (an editor saving) is refused, not lost."""
    reason = outside_root(plan.skill_file, plan.root)
    if reason is not None:
        raise FixError(reason)
    original = plan.original.encode("utf-8")
    changed = FixError(f"{plan.skill_file} changed since the fixes were planned; nothing was "
                       "written. Run studio fix again")
    # A SKILL.md that is a link (inside the root) stays one: the file it names is rewritten.
    target = Path(os.path.realpath(plan.skill_file))

    def unchanged() -> None:
        try:
            data, stamp = _read_whole(target)
        except OSError as exc:
            raise changed from exc
        if data != original or (plan.stamp is not None and stamp != plan.stamp):
            raise changed

    unchanged()
    if _body_of(plan.fixed, target) != _body_of(plan.original, target):
        raise FixError(f"the fixes would change the body of {plan.skill_file}; nothing was written")
    if plan.rename_to is not None and plan.rename_to.exists():
        raise FixError(f"cannot rename the folder: {plan.rename_to} already exists")
    if plan.fixed != plan.original:
        try:
            atomic_write_bytes(target, plan.fixed.encode("utf-8"), before_replace=unchanged,
                               strict=True)
        except RefusedWrite as exc:
            raise FixError(str(exc)) from exc
        except OSError as exc:
            raise FixError(f"cannot write {target}: {exc.strerror or exc}; it was not changed") from exc
    if plan.rename_to is not None:
        try:
            os.rename(plan.skill_file.parent, plan.rename_to)
        except OSError as exc:
            done = "the fixes were written, but " if plan.fixed != plan.original else ""
            raise FixError(
                f"{done}the folder could not be renamed to {plan.rename_to}: {exc.strerror or exc}"
            ) from exc

"""Planning and applying the machine-applicable fixes of a skill on disk.

Fixes are applied one at a time, re-validating after each, so two fixes never fight over the same
bytes. Only the characters a fix must change are rewritten; the file is written atomically.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from studio.fsutil import atomic_write_text
from studio.skills.files import load_skill
from studio.skills.model import Diagnostic, Fix, Skill
from studio.skills.parse import parse_skill
from studio.skills.validate import validate_skill
from studio.skills.yamledit import apply_edits

MAX_ROUNDS = 32


class FixError(Exception):
    """A fix could not be applied; the message says why and nothing was changed."""


@dataclass(slots=True)
class FixPlan:
    skill_file: Path
    original: str
    fixed: str
    rename_to: Path | None = None
    applied: list[str] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)

    @property
    def changes_anything(self) -> bool:
        return self.fixed != self.original or self.rename_to is not None

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


def reparse(skill: Skill, text: str, directory: Path | None = None) -> Skill:
    directory = directory or skill.directory
    return parse_skill(
        text.encode("utf-8"), directory / skill.path.name, directory=directory,
        files=skill.files, read_only=skill.read_only,
    )


def apply_fix_to_text(skill: Skill, fix: Fix) -> str:
    return apply_edits(skill.source, fix.edits)


def plan_fixes(path: Path, codes: set[str] | None = None) -> FixPlan:
    """Work out every fix for the skill at `path` (folder or SKILL.md) without writing anything."""
    skill = load_skill(path)
    if skill.read_only:
        raise FixError(f"{skill.directory} is inside an archive and cannot be changed")
    plan = FixPlan(skill.path, skill.source, skill.source)
    if not skill.source and skill.problems:
        plan.remaining = validate_skill(skill).diagnostics
        return plan
    directory = skill.directory
    for _ in range(MAX_ROUNDS):
        result = validate_skill(skill)
        candidates = [
            d for d in result.diagnostics
            if d.fix is not None and (codes is None or d.code in codes)
        ]
        if not candidates:
            plan.remaining = result.diagnostics
            break
        fix = candidates[0].fix
        assert fix is not None
        text = apply_fix_to_text(skill, fix)
        if fix.rename_directory_to:
            directory = directory.parent / fix.rename_directory_to
            plan.rename_to = directory
        plan.applied.append(f"{candidates[0].code}: {fix.title}")
        if text == skill.source and not fix.rename_directory_to:
            plan.remaining = result.diagnostics
            break
        skill = reparse(skill, text, directory)
    plan.fixed = skill.source
    return plan


def apply_plan(plan: FixPlan) -> None:
    """Write the fixed text (atomically) and rename the folder, refusing to overwrite anything."""
    current = plan.skill_file.read_bytes().decode("utf-8", errors="surrogateescape")
    if current != plan.original:
        raise FixError(f"{plan.skill_file} changed since the fixes were planned; run again")
    if plan.rename_to is not None and plan.rename_to.exists():
        raise FixError(f"cannot rename the folder: {plan.rename_to} already exists")
    if plan.fixed != plan.original:
        atomic_write_text(plan.skill_file, plan.fixed)
    if plan.rename_to is not None:
        os.rename(plan.skill_file.parent, plan.rename_to)

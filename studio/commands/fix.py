"""`studio fix PATH... [--dry-run] [--target CLIENT]`: apply (or show) the machine-applicable fixes."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from studio.fsutil import remove_stale_temps
from studio.skills import SKILL_FILE, SPEC, TARGETS, client_key, skill_file_in
from studio.skills.checks import fixes
from studio.skills.scan import SkillRoot, discover


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fix",
        help="apply the fixes validate offers",
        description="Apply every machine-applicable fix to the skills at PATH (skill folders, "
        "SKILL.md files or folders of skills). With --dry-run, print the diff instead. Exit 0 "
        "when no error is left, 1 when errors remain that need a hand (they are listed), 2 when "
        "a path or a skill could not be read or written.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--dry-run", action="store_true", help="show a diff, change nothing")
    parser.add_argument(
        "--target", type=client_key, choices=TARGETS, default=SPEC,
        help="the client the skills are written for, as `studio validate --target` judges "
        "them: the fields it reads stay where they are (default: spec)",
    )
    parser.set_defaults(handler=run)


def _targets(path: Path) -> tuple[Path, list[Path]]:
    """The root the user named (as an absolute path, so `.` has a name) and the skills in it."""
    path = Path(os.path.abspath(path))
    if path.is_file() and skill_file_in([path.name]) is not None:
        return path.parent, [path]
    if path.is_dir():
        found = [directory for directory, _ in discover(path)]
        return path, found or [path]
    return path, []


def _clean_temps(target: Path, root: Path) -> None:
    folder = target if target.is_dir() else target.parent
    for name in (SKILL_FILE, SKILL_FILE.lower()):  # SKILL.md, and skill.md that some accept
        skill_file = folder / name
        if fixes.outside_root(skill_file, root) is not None:
            return
        for stale in remove_stale_temps(skill_file):
            print(f"{stale}: removed, a copy an interrupted studio fix left behind")


def _report(plan: fixes.FixPlan, dry_run: bool) -> None:
    if dry_run:
        sys.stdout.write(plan.diff())
    else:
        for title in plan.applied:
            print(f"{plan.skill_file}: fixed {title}")
    for refused in plan.refused:
        print(f"{plan.skill_file}: {refused}")
    folder = plan.rename_to if plan.rename_to is not None and not dry_run else None
    skill_file = folder / plan.skill_file.name if folder is not None else plan.skill_file
    errors = plan.errors
    for d in errors:
        location = skill_file if d.file == skill_file.name else skill_file.parent / d.file
        print(f"{location}:{d.line}:{d.column}: {d.severity} {d.code}: {d.message}")
    if errors:
        count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
        print(f"{skill_file}: {count} left that studio fix cannot fix; edit them by hand")


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.paths:
        if SkillRoot(path).is_zip and path.is_file():
            print(f"studio fix: {path}: archives are read-only; unpack it to fix it",
                  file=sys.stderr)
            status = 2
            continue
        root, targets = _targets(path)
        if not targets:
            print(f"studio fix: {path}: no such skill, SKILL.md or folder", file=sys.stderr)
            status = 2
            continue
        for target in targets:
            try:
                if not args.dry_run:
                    _clean_temps(target, root)
                plan = fixes.plan_fixes(target, root=root, target=args.target)
                if plan.changes_anything and not args.dry_run:
                    fixes.apply_plan(plan)
            except (fixes.FixError, OSError) as exc:
                print(f"studio fix: {target}: {exc}", file=sys.stderr)
                status = 2
                continue
            _report(plan, args.dry_run)
            if plan.errors and status == 0:
                status = 1
    return status

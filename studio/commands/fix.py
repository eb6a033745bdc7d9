"""`studio fix PATH... [--dry-run]`: apply (or show) the machine-applicable fixes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.skills.fixes import FixError, apply_plan, plan_fixes
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE, Severity
from studio.skills.walk import discover


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fix",
        help="apply the fixes validate offers",
        description="Apply every machine-applicable fix to the skills at PATH (skill folders, "
        "SKILL.md files or folders of skills). With --dry-run, print the diff instead.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--dry-run", action="store_true", help="show a diff, change nothing")
    parser.set_defaults(handler=run)


def _skill_paths(path: Path) -> list[Path]:
    if path.is_file() and path.name in (SKILL_FILE, LOWERCASE_SKILL_FILE):
        return [path]
    if path.is_dir():
        found = [directory for directory, _ in discover(path)]
        return found or [path]
    return []


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.paths:
        if path.suffix.lower() == ".zip" and path.is_file():
            print(f"studio fix: {path}: archives are read-only; unpack it to fix it",
                  file=sys.stderr)
            status = 2
            continue
        targets = _skill_paths(path)
        if not targets:
            print(f"studio fix: {path}: no such skill, SKILL.md or folder", file=sys.stderr)
            status = 2
            continue
        for target in targets:
            try:
                plan = plan_fixes(target)
                if plan.changes_anything and not args.dry_run:
                    apply_plan(plan)
            except (FixError, OSError) as exc:
                print(f"studio fix: {target}: {exc}", file=sys.stderr)
                status = 2
                continue
            if args.dry_run:
                sys.stdout.write(plan.diff())
            else:
                for title in plan.applied:
                    print(f"{plan.skill_file}: fixed {title}")
            if any(d.severity is Severity.ERROR for d in plan.remaining) and status == 0:
                status = 1
    return status

"""`studio sync [PROJECT | --global | --into DIR] [--check] [--format text|json] [--force]`:
make a project's skills what its `skills-lock.json` records (studio's entries and the skills
CLI's), or, with --check, only say which are not, for CI (see `studio.skills.install.lockcheck`
and `locksync`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from studio.skills.install import lockfile, locksync, placement
from studio.textshow import shown, shown_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sync", help="restore a project's skills as skills-lock.json records them (--check: only "
        "say which differ)",
        description="Restore every skill recorded in the project's skills-lock.json (by studio "
        "or the skills CLI) at its recorded commit, checking each against its recorded hash "
        "before it is written. With --check nothing is changed: exit 1 naming each skill that "
        "is missing, modified (which files) or not at its locked commit, 0 when all match.")
    parser.add_argument("project", nargs="?", type=Path, default=None, metavar="PROJECT",
                        help="the project (default: this folder)")
    parser.add_argument("--global", dest="user", action="store_true",
                        help="the user's ~/.agents/skills instead of a project's")
    parser.add_argument("--into", type=Path, default=None, metavar="DIR",
                        help="a skill folder of your own instead of the project's .agents/skills")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when any skill differs from the lock file")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="--check's report: lines of text or one JSON object")
    parser.add_argument("--force", action="store_true",
                        help="also replace a link or a file that stands where a skill goes")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if sum((args.into is not None, args.project is not None, args.user)) > 1:
        print("studio sync: give one of PROJECT, --global or --into", file=sys.stderr)
        return 2
    project = Path.home() if args.user else args.project or Path(os.getcwd())
    if args.into is None and not project.is_dir():
        print(shown(f"studio sync: {project} is not a folder; give the project's folder"),
              file=sys.stderr)
        return 2
    into = args.into if args.into is not None else placement.canonical_folder(project.resolve())
    try:
        return _check(into, args.format) if args.check else _sync(into, args.force)
    except lockfile.LockError as exc:
        print(f"studio sync: {exc}", file=sys.stderr)
        return 1


def _check(into: Path, form: str) -> int:
    found = locksync.check(into)
    ok = all(state.ok for state in found)
    if form == "json":
        print(shown_json(json.dumps({"lockFile": str(lockfile.lock_path(into)), "ok": ok,
                                     "skills": [state.as_json() for state in found]}, indent=2)))
        return 0 if ok else 1
    if not found:
        print(f"nothing recorded in {lockfile.lock_path(into)}", file=sys.stderr)
        return 0
    for state in found:
        # A lock file is a project's: its names, paths and reasons are shown, never obeyed.
        print(shown("\n".join(state.describe())))
    bad = [state.record.name for state in found if not state.ok]
    if bad:
        print(shown(f"studio sync --check: {len(bad)} of {len(found)} skills differ from "
                    f"{lockfile.lock_path(into)}: {', '.join(bad)}; run `studio sync` to restore them"),
              file=sys.stderr)
        return 1
    return 0


def _sync(into: Path, force: bool) -> int:
    report = locksync.restore(into, force=force)
    for line in report.describe():
        failed = not line.startswith(("restored ", "  "))
        print(shown(f"studio sync: {line}" if failed else line), file=sys.stderr)
    if not (report.restored or report.failed):
        print(shown(f"all {len(report.unchanged)} skills in {into} are as "
                    f"{lockfile.lock_path(into).name} records them"), file=sys.stderr)
    return 0 if report.ok else 1

"""`studio install URL [--into DIR] [--yes]` and `studio install --update [--into DIR]`.

Downloads a zip or tar.gz of skills, checks every entry, validates the skills and lists them (with
their problems and what they would replace) before writing anything; replacing a skill asks, at a
terminal, or needs --yes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from studio.skills.install import (
    MAX_DOWNLOAD,
    InstallError,
    InstallPlan,
    commit_install,
    prepare_install,
)
from studio.skills.library import standard_locations
from studio.skills.lockfile import read_lock
from studio.skills.threats import threat_report

Ask = Callable[[str], bool]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "install",
        help="install skills from a zip or tar.gz at a URL",
        description="Download a zip or tar.gz of skills (a repository's archive URL works), check "
        "it, show what it holds and install it. Nothing is written when any check fails. "
        "Exit 0 when installed (or up to date), 1 when refused, 2 on a usage error.",
    )
    parser.add_argument("url", nargs="?", metavar="URL")
    parser.add_argument("--into", type=Path, default=None, metavar="DIR",
                        help="the skill folder to install into (default: ~/.agents/skills)")
    parser.add_argument("--update", action="store_true",
                        help="download every URL recorded in DIR's skills-lock.json again")
    parser.add_argument("--yes", action="store_true", help="replace existing skills without asking")
    parser.add_argument("--max-size", type=int, default=MAX_DOWNLOAD >> 20, metavar="MB",
                        help=f"refuse downloads larger than this (default: {MAX_DOWNLOAD >> 20})")
    parser.set_defaults(handler=run)


def _terminal_ask(question: str) -> bool:
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError):
        return False
    return answer.strip().lower() in ("y", "yes")


def run(args: argparse.Namespace) -> int:
    if (args.url is None) == (not args.update):
        print("studio install: give a URL, or --update (not both)", file=sys.stderr)
        return 2
    into: Path = args.into if args.into is not None else standard_locations()[0]
    ask: Ask | None = _terminal_ask if sys.stdin.isatty() else None
    if args.update:
        records = read_lock(into)
        if not records:
            print(f"studio install: {into} has no recorded installs to update", file=sys.stderr)
            return 1
        codes = [install(r.url, into, args.yes, ask, args.max_size << 20, sys.stderr, r.sha256,
                         set(r.skills)) for r in records]
        return max(codes)
    return install(args.url, into, args.yes, ask, args.max_size << 20, sys.stderr)


def install(url: str, into: Path, yes: bool, ask: Ask | None, max_bytes: int, err: TextIO,
            known_sha256: str | None = None, ours: set[str] | frozenset[str] = frozenset()) -> int:
    """Install one URL; 0 when installed or already up to date, 1 when refused. An update
    (`known_sha256`) replaces the skills this URL installed before (`ours`) without asking."""
    try:
        plan = prepare_install(url, into, max_bytes=max_bytes)
    except InstallError as exc:
        print(f"studio install: {exc}; nothing was written", file=err)
        return 1
    try:
        if known_sha256 is not None and plan.sha256 == known_sha256:
            print(f"{url}: up to date", file=err)
            return 0
        _show(plan, err)
        if plan.invalid:
            print("studio install: refused because of the errors above; nothing was written",
                  file=err)
            return 1
        others = [skill for skill in plan.replaced if skill.folder not in ours]
        if others and not yes:
            folders = ", ".join(skill.folder for skill in others)
            if ask is None:
                print(f"studio install: this would replace {folders}; pass --yes to replace "
                      "them (nothing was written)", file=err)
                return 1
            if not ask(f"Replace {folders} in {into}?"):
                print("studio install: not replaced; nothing was written", file=err)
                return 1
        commit_install(plan)
    except InstallError as exc:
        print(f"studio install: {exc}", file=err)
        return 1
    finally:
        plan.discard()
    print(f"installed {len(plan.skills)} skill{'s' if len(plan.skills) != 1 else ''} into {into}",
          file=err)
    return 0


def _show(plan: InstallPlan, err: TextIO) -> None:
    err.write("".join(line + "\n" for line in plan.describe()))
    err.write("".join(f"{line}\n" for line in threat_report((s.folder, s.staged, s.diagnostics)
                                                             for s in plan.skills)))

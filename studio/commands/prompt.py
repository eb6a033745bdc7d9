"""`studio prompt PATH...`: print the `<available_skills>` catalog an agent's prompt would carry."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.commands.options import SKILL_SOURCE_HELP, served_consent_flag, skill_source
from studio.commands.served import skill_paths
from studio.commands.textsafe import one_line, shown_path, utf8_text
from studio.paths import cache_dir
from studio.skills.scan import ScanCache, collect_headers
from studio.skills.search import build_catalog
from studio.textshow import shown_prose

CACHE_FILE = "prompt-cache.marshal"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "prompt", help="print the <available_skills> catalog for an agent's system prompt",
        description="Print the <available_skills> catalog of the skills at PATH. Only each "
        "skill's SKILL.md is read (a skill left out is validated in full, to say why), and a "
        "cache keeps what it held: only SKILL.md files changed since the last run are read again.",
    )
    parser.add_argument("paths", nargs="*", type=skill_source, metavar="PATH",
                        help=SKILL_SOURCE_HELP)
    parser.add_argument("--skills", action="append", type=skill_source, default=[],
                        metavar="PATH", help=f"{SKILL_SOURCE_HELP} (repeatable; as PATH)")
    served_consent_flag(parser)
    parser.add_argument("--no-cache", action="store_true", help="ignore and keep no scan cache")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    given: list[Path | str] = [*args.paths, *args.skills]
    if not given:
        print("studio prompt: give a PATH or --skills (a skill, a folder of skills, a zip or an "
              "mcp+ server)", file=sys.stderr)
        return 2
    roots = skill_paths("prompt", args, given)
    cache = None if args.no_cache else ScanCache(cache_dir() / CACHE_FILE, ScanCache.HEADERS)
    collected = collect_headers(roots.paths, cache)
    collected.skills, shadowed = roots.drop_shadowed(collected.skills)
    for note in shadowed:
        print(f"studio prompt: {one_line(note)}", file=sys.stderr)
    for problem in collected.problems:
        print(f"studio prompt: {one_line(problem)}", file=sys.stderr)
    for notice in collected.notices:
        print(
            f"studio prompt: {shown_path(notice.path)}: notice {notice.code}: "
            f"{one_line(notice.message)}",
            file=sys.stderr,
        )
    catalog = build_catalog(collected.skills)
    for skipped in catalog.skipped:
        first = skipped.first_problem
        why = f": {one_line(first.message)}" if first is not None else ""
        print(f"studio prompt: left out {shown_path(str(skipped.directory))}{why}", file=sys.stderr)
    # Names and descriptions are the skills' authors': shown, so none acts on the terminal.
    print(utf8_text(shown_prose(catalog.xml)))
    return 2 if collected.problems or roots.problems else 0

"""`studio install SOURCE [--client NAME ...] [--copy] [--global | --project DIR | --into DIR]`.

SOURCE is a git repository (`owner/repo`, `owner/repo/path/to/skill`, a git URL, a folder, each
with an optional `#ref`; --pin keeps it at the commit that ref resolves to), the URL of a zip or
tar.gz (see `studio.skills.install.sources`), or an MCP server that serves skills
(`mcp+http://...`, `'mcp+stdio:COMMAND ARGS'`): its skills are asked about (or agreed to with
--yes), every file is verified against the server's manifest, and the lock file pins each file's
digest. The skills
go into `.agents/skills` of the project (the current folder, or --project) or, with --global, of
the user's home; each client named with --client gets a link to them in its own folder (or a copy
with --copy), as the skills CLI does. Every skill is validated and listed (with its problems and
what it would replace) before anything is written; replacing asks at a terminal, or needs --yes.
The install is recorded in `skills-lock.json`, shared with the skills CLI.

`studio install --update` is `studio update`.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Iterator
from typing import Any

from studio.commands.installing import Ask, add_where_arguments, install, terminal_ask, where_of
from studio.commands.update import update_all
from studio.skills.install import MAX_DOWNLOAD, placement


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "install",
        help="install skills from a git repository, a folder or an archive URL",
        description="Fetch skills (owner/repo, owner/repo/path/to/skill, a git URL, a folder, "
        "each with an optional #branch, #tag or #commit; a zip or tar.gz URL; or an MCP server: "
        "mcp+http://HOST:PORT/PATH or 'mcp+stdio:COMMAND ARGS'), check them, "
        "show what they hold and install them into .agents/skills, with a link (or a copy) in "
        "each --client's folder, as the skills CLI does. Nothing is written when any check "
        "fails. Exit 0 when installed (or up to date), 1 when refused, 2 on a usage error.",
    )
    parser.add_argument("url", nargs="?", metavar="SOURCE")
    add_where_arguments(parser)
    parser.add_argument("--update", action="store_true",
                        help="fetch every recorded install again (as studio update)")
    parser.add_argument("--pin", action="store_true",
                        help="keep it at the commit it resolves to now: studio update leaves it "
                        "there (a git source only)")
    parser.add_argument("--yes", action="store_true",
                        help="replace existing skills, and agree to an MCP server's skills, "
                        "without asking")
    parser.add_argument("--max-size", type=int, default=MAX_DOWNLOAD >> 20, metavar="MB",
                        help=f"refuse downloads larger than this (default: {MAX_DOWNLOAD >> 20})")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with _terminated_cleanly():
        return _run(args)


@contextlib.contextmanager
def _terminated_cleanly() -> Iterator[None]:
    """A SIGTERM (a `kill`, a closed CI job) ends the install through the same `finally` as an
    error, so its scratch folder goes with it; a SIGKILL leaves it for the next install."""
    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (a test, an embedding): nothing to restore
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    if (args.url is None) == (not args.update):
        print("studio install: give a SOURCE, or --update (not both)", file=sys.stderr)
        return 2
    try:
        where = where_of(args)
    except placement.PlacementError as exc:
        print(f"studio install: {exc}", file=sys.stderr)
        return 2
    ask: Ask | None = terminal_ask if sys.stdin.isatty() else None
    if args.update:
        if args.pin:
            print("studio install: --pin applies to an install, not to --update", file=sys.stderr)
            return 2
        return update_all(where, args.yes, ask, args.max_size << 20, sys.stderr)
    return install(args.url, where, args.yes, ask, args.max_size << 20, sys.stderr, pin=args.pin)

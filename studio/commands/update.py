"""`studio update [NAME ...] [--global | --project DIR | --into DIR] [--yes]`: fetch each
recorded install again (studio's and the skills CLI's, from `skills-lock.json`) and replace the
skills whose files changed; the others are up to date (the lock file's computedHash, computed as
the skills CLI does, decides). A skill installed with --pin stays at its commit, and says so."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from studio.commands.installing import (
    Ask,
    Where,
    add_where_arguments,
    install,
    terminal_ask,
    where_of,
)
from studio.skills.install import MAX_DOWNLOAD, InstallError, installed, lockfile, placement


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "update", help="fetch installed skills again and replace those that changed",
        description="Fetch each install recorded in skills-lock.json again (those of the skills "
        "CLI too) and replace the skills whose files changed. Exit 0 when all are up to date "
        "or updated, 1 when one failed.")
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these skills")
    add_where_arguments(parser, clients=False)
    parser.add_argument("--yes", action="store_true",
                        help="replace skills the source now holds but did not install before")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        where = where_of(args)
    except placement.PlacementError as exc:
        print(f"studio update: {exc}", file=sys.stderr)
        return 2
    ask: Ask | None = terminal_ask if sys.stdin.isatty() else None
    return update_all(where, args.yes, ask, MAX_DOWNLOAD, sys.stderr, set(args.names))


def update_all(where: Where, yes: bool, ask: Ask | None, max_bytes: int, err: TextIO,
               names: set[str] | None = None) -> int:
    try:
        records = lockfile.read_lock(where.into)
    except lockfile.LockError as exc:
        print(f"studio update: {exc}", file=err)
        return 1
    if names:
        unknown = names - {record.name for record in records}
        if unknown:
            print(f"studio update: {', '.join(sorted(unknown))} not recorded in the lock file "
                  f"of {where.into}; see studio list", file=err)
            return 1
    pinned = [record for record in records if record.pinned_note() is not None]
    for record in pinned:
        if not names or record.name in names:
            print(record.pinned_note(), file=err)
    # A source holds more skills than those asked for: all it installed are its own to replace.
    by_source: dict[str, list[lockfile.InstallRecord]] = {}
    refused: list[lockfile.InstallRecord] = []
    for record in records:
        if record in pinned:
            continue
        try:
            by_source.setdefault(installed.fetchable(record), []).append(record)
        except InstallError as exc:
            refused.append(record)
            if not names or record.name in names:
                print(f"studio update: {exc}", file=err)
    if names:
        by_source = {source: group for source, group in by_source.items()
                     if any(record.name in names for record in group)}
        refused = [record for record in refused if record.name in names]
    if not by_source:
        if pinned and not refused and (not names or names <= {r.name for r in pinned}):
            return 0
        if not refused:
            print(f"studio update: {where.into} has no recorded installs to update", file=err)
        return 1
    codes = [1] if refused else []
    for source, group in by_source.items():
        clients = group[0].studio.get("clients")
        here = where
        if isinstance(clients, list) and where.base is not None:
            here = Where(where.into, where.base, where.user, tuple(clients),
                         tuple(placement.client_folders(clients, where.base, where.user)),
                         group[0].studio.get("mode") == "copy")
        # An update brings back what was installed, not what the source has added since (as
        # the skills CLI, which records each skill of a repository on its own).
        only = {record.name for record in group}
        codes.append(install(source, here, yes, ask, max_bytes, err,
                             {record.name: record.computed_hash for record in group},
                             {record.name for record in group}, only))
    return max(codes)

"""`studio list` and `studio remove NAME ...`: the skills recorded in `skills-lock.json` (by
studio or the skills CLI) for the project's `.agents/skills`, the user's (--global) or a folder
(--into)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from studio.commands.installing import add_where_arguments, where_of
from studio.commands.paging import Page, add_paging_arguments, print_json_array, print_json_line
from studio.skills.install import installed, lockfile, placement
from studio.textshow import shown


def register_list(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "list", help="list installed skills (studio's and the skills CLI's)",
        description="List the skills recorded in skills-lock.json: where each came from, "
        "whether its files changed since, and which client folders link to it.")
    add_where_arguments(parser, clients=False)
    parser.add_argument("--format", choices=("text", "json", "jsonl"), default="text",
                        help="json: one array; jsonl: one object a line, printed as each is "
                        "read (JSON Lines, for a reader that pages with --limit and --offset)")
    add_paging_arguments(parser)
    parser.set_defaults(handler=run_list)


def register_remove(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "remove", help="remove installed skills, their client links and their lock entries",
        description="Remove installed skills: the folder in .agents/skills (or --into), the "
        "links to it and the copies of it in the clients' folders, and the lock file entry.")
    parser.add_argument("names", nargs="+", metavar="NAME")
    add_where_arguments(parser, clients=False)
    parser.set_defaults(handler=run_remove)


def run_list(args: argparse.Namespace) -> int:
    try:
        where = where_of(args)
        found = installed.iter_installed(where.into, args.offset)
    except (placement.PlacementError, lockfile.LockError) as exc:
        print(f"studio list: {exc}", file=sys.stderr)
        return 1
    # Skipped before they are looked at on disk (see iter_installed).
    page = Page(found, args.offset, args.limit, skip=False)
    if args.format == "json":
        print_json_array(_json(item) for item in page)
    elif args.format == "jsonl":
        for item in page:
            print_json_line(_json(item))
    else:
        for item in page:
            _print(item)
        if page.taken == 0 and args.offset == 0:
            print(f"nothing recorded in {lockfile.lock_path(where.into)}", file=sys.stderr)
    page.note("studio list")
    return 0


def _json(item: installed.Installed) -> dict[str, Any]:
    return {
        "name": item.record.name, "source": item.record.source,
        "sourceType": item.record.source_type, "ref": item.record.ref,
        "installedBy": item.record.installed_by, "folder": str(item.folder),
        "present": item.present, "changed": item.changed,
        "links": [str(link) for link in item.links], "refused": item.problem,
        "commit": item.record.studio.get("commit"),
        "pinned": item.record.studio.get("pinned") is True,
    }


def _print(item: installed.Installed) -> None:
    record = item.record
    ref = f"#{record.ref}" if record.ref else ""
    if record.studio.get("pinned") is True:
        ref += f", pinned at {record.studio.get('commit')}"
    state = ("missing" if not item.present else
             "changed since installed" if item.changed else "as installed")
    # A lock file is a project's, not the user's: its names and sources are shown, never obeyed.
    print(shown(f"{record.name}  {record.source}{ref} ({record.source_type}, by "
                f"{record.installed_by}), {state}"))
    for link in item.links:
        print(f"  linked from {shown(str(link))}")
    if item.problem is not None:
        print(f"  studio update refuses this entry: {shown(item.problem)}")


def run_remove(args: argparse.Namespace) -> int:
    try:
        where = where_of(args)
    except placement.PlacementError as exc:
        print(f"studio remove: {exc}", file=sys.stderr)
        return 2
    code = 0
    for name in args.names:
        try:
            removed = installed.remove_installed(where.into, name, where.base, where.user)
        except lockfile.LockError as exc:
            print(f"studio remove: {exc}; nothing was removed", file=sys.stderr)
            return 1
        except KeyError:
            print(f"studio remove: {shown(name)} is not recorded in {lockfile.lock_path(where.into)}; see "
                  "studio list", file=sys.stderr)
            code = 1
            continue
        print(shown(f"removed {name}" + "".join(f"\n  {path}" for path in removed)), file=sys.stderr)
    return code

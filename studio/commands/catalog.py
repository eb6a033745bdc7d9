"""`studio catalog [PROJECT] --client NAME`: what that client really loads for the project and
the user (the home from the environment), each skill with its state and why, the description as
the client shows it, and the listing against the client's budget (studio.skills.catalog)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from studio.commands.arguments import positive
from studio.commands.paging import Page, add_paging_arguments, print_json_line
from studio.skills.catalog import CLIENTS, Catalog, CatalogError, Entry, effective_catalog
from studio.textshow import shown, shown_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "catalog", help="show which skills a client really loads for a project, and why not others",
        description="List every skill the client would find for PROJECT (default: the current "
        "folder) and the user: loaded, shadowed (by which), disabled (by which setting), "
        "not-loaded (why) or unknown (no source says), with the description as the client "
        "shows it and the listing against its budget. docs/clients.md gives each rule's source.")
    parser.add_argument("project", nargs="?", default=".", metavar="PROJECT")
    parser.add_argument("--client", required=True, choices=[*CLIENTS, "github-copilot"],
                        help="the client whose view to show")
    parser.add_argument("--user-only", action="store_true",
                        help="the user's skills only, as outside any project")
    parser.add_argument("--context-window", type=positive, metavar="TOKENS",
                        help="the model's context window, for the listing's budget")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true",
                        help="print one JSON object (the skills of the page, the budget, "
                        "notices, and `next`: the next page's --offset, or null)")
    shape.add_argument("--jsonl", action="store_true",
                        help="print each skill as a line of JSON as it is written (JSON Lines)")
    add_paging_arguments(parser)
    parser.set_defaults(handler=run)


def _home() -> Path:
    home = os.environ.get("HOME", "").strip()
    return Path(home) if home else Path.home()


def run(args: argparse.Namespace) -> int:
    project = None if args.user_only else Path(args.project).resolve()
    if project is not None and not project.is_dir():
        print(f"studio catalog: {shown(str(project))} is not a folder; give a project folder",
              file=sys.stderr)
        return 2
    try:
        catalog = effective_catalog(args.client, project, _home(), dict(os.environ),
                                    context_window=args.context_window)
    except CatalogError as exc:
        print(f"studio catalog: {exc}", file=sys.stderr)
        return 2
    page = Page(catalog.entries, args.offset, args.limit)
    if args.jsonl:
        for entry in page:
            print_json_line(entry.to_json())
        for notice in catalog.notices:
            print(shown(f"note: {notice}"), file=sys.stderr)
    elif args.json:
        _print_json(catalog, page)
    else:
        _print(catalog, page)
    page.note("studio catalog")
    return 0


def _print_json(catalog: Catalog, page: Page[Entry]) -> None:
    """The catalog's JSON object, its skills written one at a time."""
    head = {"client": catalog.client,
            "project": str(catalog.project) if catalog.project else None}
    print(shown_json(json.dumps(head, ensure_ascii=False)[:-1]) + ', "skills": [', end="")
    separator = "\n  "
    for entry in page:
        print(separator + shown_json(json.dumps(entry.to_json(), ensure_ascii=False)), end="")
        separator = ",\n  "
    after = {"budget": catalog.budget.to_json(), "notices": catalog.notices,
             "next": page.offset + page.taken if page.more else None}
    print("\n], " + shown_json(json.dumps(after, ensure_ascii=False))[1:])


def _print(catalog: Catalog, page: Page[Entry]) -> None:
    where = f" in {catalog.project}" if catalog.project else " (user skills only)"
    print(shown(f"{catalog.title}{where}: {catalog.count('loaded')} loaded, "
                f"{catalog.count('shadowed')} shadowed, {catalog.count('disabled')} disabled, "
                f"{catalog.count('not-loaded')} not loaded, {catalog.count('unknown')} unknown"))
    for entry in page:
        print(shown(f"  {entry.state:<10}  {entry.name}  {entry.path}"))
        if entry.why:
            print(shown(f"              {entry.why}"))
    budget = catalog.budget
    if budget.known:
        print(f"listing: {budget.used:,} of {budget.limit:,} {budget.unit} ({budget.basis})")
        if "(assumed)" in budget.basis:
            print("  give --context-window TOKENS for your model's window")
        if budget.over:
            print(shown(f"  over the budget: {', '.join(budget.over)}"))
    else:
        print(f"listing budget: {budget.source}")
    for notice in catalog.notices:
        print(shown(f"note: {notice}"), file=sys.stderr)


__all__ = ["register"]

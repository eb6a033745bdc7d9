"""Installing one source into a skill folder, shared by `studio install` and `studio update`:
where it goes (the project's, the user's or a folder of one's own, and each client's link), the
plan shown before anything is written, the question before a replacement, and the placing."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from studio.commands.served import Consent, agree_to_all, terminal_consent
from studio.skills import client_key
from studio.skills.install import (
    InstallError,
    InstallPlan,
    commit_install,
    installed,
    placement,
    prepare_source,
)
from studio.threatscan import preview_lines

Ask = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class Where:
    """Where an install goes: the folder of the one copy, the client folders that get a link
    or a copy, and the project (or home) they belong to (None with --into)."""

    into: Path
    base: Path | None = None
    user: bool = False
    clients: tuple[str, ...] = ()
    folders: tuple[Path, ...] = field(default_factory=tuple)
    copy: bool = False


def add_where_arguments(parser: argparse.ArgumentParser, clients: bool = True) -> None:
    """The options that say which skill folder a command works on (install, list, update,
    remove share them)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--global", dest="user", action="store_true",
                       help="the user's folders (~/.agents/skills and each client's) instead of "
                       "the project's")
    group.add_argument("--project", type=Path, default=None, metavar="DIR",
                       help="the project whose .agents/skills to use (default: this folder)")
    group.add_argument("--into", type=Path, default=None, metavar="DIR",
                       help="a skill folder of your choice instead (no client links)")
    if clients:
        parser.add_argument("--client", action="append", default=[], type=client_key,
                            choices=sorted(placement.CLIENTS), metavar="NAME",
                            help="also install for this client: a link in its folder (repeat "
                            f"for several; one of {', '.join(sorted(placement.CLIENTS))}; `copilot` "
                            "names github-copilot)")
        parser.add_argument("--copy", action="store_true",
                            help="give each client a copy instead of a link to the one copy")


def where_of(args: argparse.Namespace) -> Where:
    """Raises PlacementError for a combination that makes no sense."""
    clients = tuple(getattr(args, "client", ()) or ())
    copy = bool(getattr(args, "copy", False))
    if args.into is not None:
        if clients:
            raise placement.PlacementError("--client places links in a project's or the user's client "
                                 "folders; it cannot be used with --into")
        return Where(args.into)
    base = Path.home() if args.user else (args.project or Path(os.getcwd())).resolve()
    folders = placement.client_folders(clients, base, args.user)
    return Where(placement.canonical_folder(base), base, args.user, clients, tuple(folders), copy)


def terminal_ask(question: str) -> bool:
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError):
        return False
    return answer.strip().lower() in ("y", "yes")


def install(source: str, where: Where | Path, yes: bool, ask: Ask | None, max_bytes: int,
            err: TextIO, known_hashes: dict[str, str] | None = None,
            ours: set[str] | frozenset[str] = frozenset(), only: set[str] | None = None,
            pin: bool = False) -> int:
    """Install one source; 0 when installed or already up to date, 1 when refused. An update
    (`known_hashes`: each skill's recorded computedHash) replaces the skills this source
    installed before (`ours`) without asking, and writes nothing when none changed; with
    `only`, it installs those skills of the source and no other. `pin` records the install as
    pinned to the commit it resolved to (updates leave it)."""
    if isinstance(where, Path):
        where = Where(where)
    into = where.into
    try:
        plan = prepare_source(source, into, max_bytes=max_bytes,
                              consent=_served_consent(yes, ask))
    except InstallError as exc:
        print(f"studio install: {exc}; nothing was written", file=err)
        return 1
    try:
        if only is not None:
            plan.skills = [skill for skill in plan.skills if skill.folder in only]
            missing = only - {skill.folder for skill in plan.skills}
            if missing:
                print(f"studio install: {source} no longer holds {', '.join(sorted(missing))}",
                      file=err)
                return 1
        if known_hashes is not None and installed.unchanged(plan, known_hashes):
            print(f"{source}: up to date", file=err)
            return 0
        _show(plan, err)
        if pin and not plan.commit:
            print(f"studio install: --pin keeps a git source at its commit; {source} is not "
                  "fetched with git (nothing was written)", file=err)
            return 1
        if plan.invalid:
            print("studio install: refused because of the errors above; nothing was written",
                  file=err)
            return 1
        others = [skill.folder for skill in plan.replaced if skill.folder not in ours]
        others += [str(path) for skill in plan.skills
                   for path in placement.blocking(skill.folder, where.folders, into)
                   if skill.folder not in ours]
        if others and not yes:
            folders = ", ".join(others)
            if ask is None:
                print(f"studio install: this would replace {folders}; pass --yes to replace "
                      "them (nothing was written)", file=err)
                return 1
            if not ask(f"Replace {folders} in {into}?"):
                print("studio install: not replaced; nothing was written", file=err)
                return 1
        studio: dict[str, Any] = {}
        if where.clients:
            studio = {"clients": list(where.clients), "mode": "copy" if where.copy else "link"}
        if pin:
            studio["pinned"] = True
        commit_install(plan, studio=studio)
    except InstallError as exc:
        print(f"studio install: {exc}", file=err)
        return 1
    finally:
        plan.discard()
    count = len(plan.skills)
    pinned = f", pinned at commit {plan.commit}" if pin else ""
    print(f"installed {count} skill{'s' if count != 1 else ''} into {into}{pinned}", file=err)
    for skill in plan.skills:
        try:
            for placed in placement.place(skill.folder, into, where.folders, where.copy):
                how = "copied to" if where.copy else "linked from"
                print(f"  {skill.folder}: {how} {placed}", file=err)
        except OSError as exc:
            print(f"studio install: {skill.folder} is installed in {into} but could not be "
                  f"placed for every client: {exc.strerror or exc}", file=err)
            return 1
    return 0


def _served_consent(yes: bool, ask: Ask | None) -> Consent | None:
    """Agreeing to an MCP server's skills as a replacement is agreed to: --yes, or a terminal's
    answer (where one can be asked), or not at all."""
    if yes:
        return agree_to_all
    return terminal_consent() if ask is not None else None


def _show(plan: InstallPlan, err: TextIO) -> None:
    err.write("".join(line + "\n" for line in plan.describe()))
    threats = preview_lines((skill.folder, skill.staged) for skill in plan.skills)
    err.write("".join(f"{line}\n" for line in threats))

"""Programs told to follow links as they walk a tree (`grep -R`, `rg -L`, `find -L`, `cp -L`,
`tar -h`, `du -L`, `ls -L`, `diff -r`, `zip -r`): what they read is wherever the links under
the tree lead. A link out of the workspace anywhere below makes it a read outside, and asks.

The walk is bounded (MAX_LINK_SCAN entries, the check's budget looked at as it goes); a tree too
big to walk asks as well, since what was not looked at cannot be allowed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from studio.policy.programs.call import Call
from studio.policy.programs.paths import display, is_inside
from studio.policy.shell.budget import FOLDER, tick

MAX_LINK_SCAN = 4096
_TICK_EVERY = 64

# program: (short letters, long options) that make it follow links while it walks.
_FOLLOWING: dict[str, tuple[str, frozenset[str]]] = {
    "grep": ("R", frozenset({"--dereference-recursive"})),
    "rg": ("L", frozenset({"--follow"})),
    "ag": ("f", frozenset({"--follow"})),
    "cp": ("L", frozenset({"--dereference"})),
    "tar": ("h", frozenset({"--dereference"})),
    "du": ("L", frozenset({"--dereference"})),
    "ls": ("L", frozenset({"--dereference"})),
    "tree": ("l", frozenset()),
    "rsync": ("L", frozenset({"--copy-links", "--copy-unsafe-links"})),
    "find": ("", frozenset({"-L", "-follow"})),
    # diff -r and zip -r follow links unless told not to.
    "diff": ("r", frozenset({"--recursive"})),
    "zip": ("r", frozenset({"--recurse-paths"})),
}
for _name in ("egrep", "fgrep", "zgrep"):
    _FOLLOWING[_name] = _FOLLOWING["grep"]
_NOT_FOLLOWING = {"diff": frozenset({"--no-dereference"}), "zip": frozenset({"-y", "--symlinks"})}


def _given(call: Call, letters: str, names: frozenset[str]) -> bool:
    for index, arg in enumerate(call.args):
        if not arg.known:
            continue
        text = arg.text
        if text == "--":
            return False
        if text.partition("=")[0] in names:
            return True
        # `tar chf a.tar x`: the first word is a cluster of letters without its dash.
        old_tar = call.name == "tar" and index == 0 and text.isalpha()
        cluster = text if old_tar else text[1:] if text.startswith("-") and not text.startswith("--") else ""
        if letters and any(letter in cluster for letter in letters):
            return True
    return False


def follows_links(call: Call) -> None:
    """Ask when `call` follows links and a link under what it walks leads out of the workspace."""
    entry = _FOLLOWING.get(call.name)
    if entry is None or call.cwd is None:
        return
    letters, names = entry
    if not _given(call, letters, names):
        return
    refusing = _NOT_FOLLOWING.get(call.name, frozenset())
    if any(a.known and a.text in refusing for a in call.args):
        return
    workspace = call.context.workspace
    # What lies outside was asked about already; the walk looks at what the workspace holds.
    roots = [p for p in dict.fromkeys(call.part.paths) if is_inside(p, workspace)] or [call.cwd]
    recursive = call.name != "ls" or _given(call, "R", frozenset({"--recursive"}))
    found = outward_link(roots, workspace, None if recursive else 1)
    if found is None:
        return
    link, target = found
    if target is None:
        call.ask(
            "outside",
            f"`{call.name}` follows links, and the folders it walks hold more than {MAX_LINK_SCAN:,} "
            "entries, too many to check that none leads outside the workspace",
        )
        return
    home = call.context.home
    call.ask(
        "outside",
        f"`{call.name}` follows links, and `{display(link, workspace, home)}` leads outside the "
        f"workspace ({display(target, workspace, home)})",
    )


def outward_link(
    roots: Iterable[Path], workspace: Path, depth: int | None
) -> tuple[Path, Path | None] | None:
    """The first link under `roots` (to `depth` levels; None: all) whose target is outside
    `workspace`, with that target; (root, None) when there are too many entries to tell; None
    when no link leads out. Links to folders inside are walked too, each folder once."""
    pending: list[tuple[Path, int]] = [(root, 0) for root in roots]
    seen: set[Path] = set()
    scanned = 0
    while pending:
        folder, level = pending.pop()
        if folder in seen or (depth is not None and level >= depth):
            continue
        seen.add(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            scanned += 1
            if scanned > MAX_LINK_SCAN:
                return folder, None
            if scanned % _TICK_EVERY == 0:
                tick(FOLDER)
            path = Path(entry.path)
            if entry.is_symlink():
                target = Path(os.path.realpath(path))
                if not is_inside(target, workspace):
                    return path, target
                if target.is_dir():
                    pending.append((target, level + 1))
            elif entry.is_dir(follow_symlinks=False):
                pending.append((path, level + 1))
    return None

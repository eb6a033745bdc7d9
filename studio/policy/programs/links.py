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
from studio.policy.programs.paths import display, is_inside, linked_credential
from studio.policy.shell.budget import FOLDER, tick

MAX_LINK_SCAN = 4096
# Files with more than one name looked at for being a credential's other name.
MAX_LINKED = 16
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


# Programs that read the content of every file in the folders they are given (with these
# options; None: always), where a hard link's other name outside the workspace is read too.
_READING_TREES: dict[str, tuple[str, frozenset[str]] | None] = {
    "grep": ("rR", frozenset({"--recursive", "--dereference-recursive"})),
    "rg": None,
    "ag": None,
    "cp": ("rRa", frozenset({"--recursive", "--archive"})),
    "diff": ("r", frozenset({"--recursive"})),
    "zip": ("r", frozenset({"--recurse-paths"})),
    "tar": None,
    "rsync": ("ra", frozenset({"--recursive", "--archive"})),
}
for _name in ("egrep", "fgrep", "zgrep"):
    _READING_TREES[_name] = _READING_TREES["grep"]


def reads_hard_links(call: Call) -> None:
    """Ask when `call` reads whole folders and a file below has more than one name (blocks when
    that file is a known credential's other name, `ln ~/.ssh/id_rsa notes.txt`). A tree too big
    to look through is left to the checks on each path: see docs/security-policy.md."""
    if call.name not in _READING_TREES or call.cwd is None:
        return
    entry = _READING_TREES[call.name]
    if entry is not None and not _given(call, *entry):
        return
    workspace = call.context.workspace
    roots = [p for p in dict.fromkeys(call.part.paths) if is_inside(p, workspace) and p.is_dir()]
    if not call.part.paths and call.name in ("rg", "ag", "grep"):
        roots = [call.cwd]
    linked = linked_files(roots)
    if not linked:
        return
    context = call.context
    for found in linked:
        secret = linked_credential(found, context.home)
        if secret is not None:
            shown_secret = display(found, workspace, context.home)
            call.block("credential", f"reads `{shown_secret}`, a hard link to {secret}")
            return
    # A local `git clone` hard-links its objects to the repository it came from: the same
    # history, no secret. Only a credential's other name counts there.
    linked = [p for p in linked if not (is_inside(p, workspace) and ".git" in p.relative_to(workspace).parts)]
    if not linked:
        return
    shown_path = display(linked[0], workspace, context.home)
    call.ask(
        "outside",
        f"`{call.name}` reads every file under the folders it is given, and `{shown_path}` has more "
        "than one hard link: where the others are cannot be told, so it counts as outside",
    )


def linked_files(roots: Iterable[Path]) -> list[Path]:
    """The regular files under `roots` (links not followed) with more than one name, at most
    MAX_LINKED of them, among the first MAX_LINK_SCAN entries."""
    found: list[Path] = []
    pending = list(roots)
    seen: set[Path] = set()
    scanned = 0
    while pending:
        folder = pending.pop()
        if folder in seen:
            continue
        seen.add(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            scanned += 1
            if scanned > MAX_LINK_SCAN:
                return found
            if scanned % _TICK_EVERY == 0:
                tick(FOLDER)
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_nlink > 1:
                    found.append(Path(entry.path))
                    if len(found) >= MAX_LINKED:
                        return found
            except OSError:
                continue
    return found


def follows_links(call: Call) -> None:
    """Ask when `call` follows links and a link under what it walks leads out of the workspace."""
    reads_hard_links(call)
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

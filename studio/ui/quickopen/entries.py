"""What Quick Open and the command palette list: each skill of every root of the library with
where it sits, and each action of the window's menus with its menu and shortcut."""

from __future__ import annotations

import os
from typing import NamedTuple

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from studio.skills import SkillSummary
from studio.skills.library import Library

# Between a submenu's name and the menu it is in, as the manual writes menu paths.
MENU_STEP = " ▸ "


class Entry(NamedTuple):
    """One row: `name` matched first, `hint` (where it is) matched too and shown dimmed, `keys`
    (an action's shortcut) shown at the right; `target` is the skill's summary or the action."""

    name: str
    hint: str
    keys: str
    target: SkillSummary | QAction


def skill_entries(library: Library) -> list[Entry]:
    """Every skill of every root, sorted by name, each with its root's name and the folders
    between the root and the skill (a collection's `owner--repo` among them) as its hint."""
    entries: list[Entry] = []
    for state in library.roots():
        label = state.path.name or str(state.path)
        base = str(state.path).rstrip(os.sep) + os.sep
        for summary in state.skills:
            entries.append(Entry(summary.display_name, _where(label, base, str(summary.directory)),
                                 "", summary))
    entries.sort(key=lambda entry: (entry.name.casefold(), entry.hint))
    return entries


def _where(label: str, base: str, directory: str) -> str:
    """`label/owner--repo/skills` for a skill in `ROOT/owner--repo/skills/NAME` whose root, with
    a separator after it, is `base`. On strings: pathlib's parent and relative_to for each of
    10,000 skills took a tenth of a second."""
    folder = directory.rpartition(os.sep)[0] + os.sep
    if not folder.startswith(base) or folder == base:
        return label
    return label + "/" + folder[len(base):-1].replace(os.sep, "/")


def menu_text(action: QAction) -> str:
    """The action's text as its menu shows it, without the `&` that marks its access key."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")


def action_entries(window: QMainWindow, leave_out: tuple[QAction, ...] = ()) -> list[Entry]:
    """Every action of the window's menus (walked in the order they show, with their submenus),
    then any other action of the window that has a shortcut, each once; `leave_out` are not
    listed (the palette's own action)."""
    seen: set[int] = {id(action) for action in leave_out}
    entries: list[Entry] = []

    def add(action: QAction, hint: str) -> None:
        if id(action) in seen or action.isSeparator() or not action.isVisible():
            return
        seen.add(id(action))
        name = menu_text(action)
        if name:
            entries.append(Entry(name, hint, _keys(action), action))

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            submenu = action.menu()
            if isinstance(submenu, QMenu):
                walk(submenu, path + MENU_STEP + menu_text(action))
            else:
                add(action, path)

    for top in window.menuBar().actions():
        submenu = top.menu()
        if isinstance(submenu, QMenu):
            walk(submenu, menu_text(top))
    for action in window.findChildren(QAction):
        if action.shortcuts():
            add(action, "")
    return entries


def _keys(action: QAction) -> str:
    keys = [key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()]
    return ", ".join(key for key in keys if key)

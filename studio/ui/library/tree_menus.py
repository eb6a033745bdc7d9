"""The library tree's context menus: a root's (Sync and Check against its skills-lock.json, the
client its skills are validated for) and a skill's (On in Clients, and Update and Remove for an
installed one)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QMenu, QWidget

from studio.skills import SkillSummary, skill_file_in
from studio.skills.checks import clients
from studio.skills.install import installed, lockfile, placement
from studio.ui.library.skill_toggles import add_toggle_menu
from studio.ui.library.target_labels import target_label, target_tooltip


def locked_folder(root: Path) -> Path | None:
    """The skill folder a library root's Sync and Check work on, when a lock file records it:
    a project's `.agents/skills` (the root itself, or the project's folder when that is the
    root, even before the skills are there: a fresh clone), or a folder of one's own that holds
    its lock file beside its skills (`studio install --into`)."""
    lock = lockfile.lock_path(root)
    if not lock.is_file():
        return None
    if lock.parent != root:  # a project's `.X/skills`: the one copy is in its .agents/skills
        return placement.canonical_folder(lock.parent)
    project = placement.canonical_folder(root)
    return project if project.is_dir() or not _holds_skills(root) else root


def _holds_skills(folder: Path) -> bool:
    try:
        return any(child.is_dir() and not child.name.startswith(".")
                   and skill_file_in(os.listdir(child)) is not None for child in folder.iterdir())
    except OSError:
        return False


def root_menu(parent: QWidget, path: Path, current: str, target_requested: SignalInstance,
              sync_requested: SignalInstance, check_requested: SignalInstance) -> QMenu:
    """Validate For, with the clients; picking one emits `target_requested(path, client)`. For
    a root with a skills-lock.json (a project's `.agents/skills`), Sync and Check too."""
    menu = QMenu(parent)
    menu.setToolTipsVisible(True)
    folder = locked_folder(path)
    if folder is not None:
        lock = lockfile.lock_path(folder)
        sync = menu.addAction("Sync")
        sync.setToolTip(f"Restore every skill {lock} records into {folder}, at its recorded "
                        "commit")
        sync.triggered.connect(lambda _checked=False: sync_requested.emit(folder))
        check = menu.addAction("Check")
        check.setToolTip(f"Say which skills in {folder} differ from {lock}, changing nothing")
        check.triggered.connect(lambda _checked=False: check_requested.emit(folder))
        menu.addSeparator()
    targets = menu.addMenu("Validate For")
    for key in clients.CLIENTS:
        action = targets.addAction(target_label(key))
        action.setCheckable(True)
        action.setChecked(key == current)
        action.setToolTip(target_tooltip(key))
        action.triggered.connect(
            lambda _checked=False, where=path, target=key: target_requested.emit(where, target))
    return menu


def skill_menu(parent: QWidget, summary: SkillSummary, update_requested: SignalInstance,
               remove_requested: SignalInstance) -> QMenu | None:
    """On in Clients (Claude Code's and Codex's switches), and Update and Remove for a skill
    recorded in its folder's skills-lock.json (installed by studio or the skills CLI); None when
    there is nothing to offer."""
    menu = QMenu(parent)
    menu.setToolTipsVisible(True)
    toggles = add_toggle_menu(menu, summary, parent)
    record = installed.record_for(summary.directory)
    if record is not None:
        if toggles is not None:
            menu.addSeparator()
        directory: Path = summary.directory
        update = menu.addAction("Update")
        update.setToolTip(f"Fetch {record.source} again and replace the skill if it changed")
        update.triggered.connect(lambda _checked=False: update_requested.emit(directory))
        remove = menu.addAction("Remove…")
        remove.setToolTip("Delete it, the links to it and its lock file entry")
        remove.triggered.connect(lambda _checked=False: remove_requested.emit(directory))
    return None if menu.isEmpty() else menu

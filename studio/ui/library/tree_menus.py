"""The library tree's context menus: a root's (the client its skills are validated for) and a
skill's (On in Clients, and Update and Remove for an installed one)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QMenu, QWidget

from studio.skills import SkillSummary
from studio.skills.checks import clients
from studio.skills.install import installed
from studio.ui.library.skill_toggles import add_toggle_menu
from studio.ui.library.target_labels import target_label, target_tooltip


def root_menu(parent: QWidget, path: Path, current: str,
              target_requested: SignalInstance) -> QMenu:
    """Validate For, with the clients; picking one emits `target_requested(path, client)`."""
    menu = QMenu(parent)
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

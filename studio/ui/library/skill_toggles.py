"""The library's "On in Clients" submenu: whether Claude Code and Codex, per project and for the
user, have a skill turned off, and a checkable action each to turn it on or off in the file that
client reads (`studio.skills.toggles`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from studio.skills import SkillSummary, toggles


def add_toggle_menu(menu: QMenu, summary: SkillSummary, parent: QWidget,
                    home: Path | None = None) -> QMenu | None:
    """Add the submenu for `summary` to `menu` (none for a skill without a name or in an
    archive: no client reads it there)."""
    if summary.name is None or summary.read_only:
        return None
    name = summary.name
    skill_file = summary.skill_file
    submenu = menu.addMenu("On in Clients")
    submenu.setToolTipsVisible(True)
    project = toggles.project_of(summary.directory)
    for state in toggles.skill_states(name, skill_file, project, home or Path.home()):
        if isinstance(state, toggles.ToggleError):
            action = submenu.addAction("A settings file cannot be read")
            action.setEnabled(False)
            action.setToolTip(str(state))
            continue
        action = submenu.addAction(state.label + (f" — {state.value}" if state.value else ""))
        action.setCheckable(True)
        action.setChecked(state.enabled)
        action.setToolTip(f"{state.path}" + (f"\n{state.note}" if state.note else ""))
        action.toggled.connect(
            lambda checked, chosen=state: _toggle(parent, chosen, name, skill_file, checked))
    if project is None:
        note = submenu.addAction("Project settings: the skill is not in a project's client folder")
        note.setEnabled(False)
    return submenu


def _toggle(parent: QWidget, state: toggles.ToggleState, name: str, skill_file: Path,
            enabled: bool) -> None:
    try:
        toggles.set_enabled(state, name, skill_file, enabled)
    except toggles.ToggleError as exc:
        box = QMessageBox(QMessageBox.Icon.Warning, f"Cannot turn {name} "
                          f"{'on' if enabled else 'off'}", str(exc), QMessageBox.StandardButton.Ok,
                          parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

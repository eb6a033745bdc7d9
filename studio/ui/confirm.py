"""The questions the studio asks: message boxes built here, opened and awaited by the caller."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget

Button = QMessageBox.StandardButton


def _box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
         informative: str, buttons: Button, default: Button) -> QMessageBox:
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setInformativeText(informative)
    box.setDefaultButton(default)
    box.setObjectName("confirmation")
    return box


def unsaved_changes(parent: QWidget | None, names: list[str]) -> QMessageBox:
    """Save / Discard / Cancel for tabs with unsaved changes."""
    if len(names) == 1:
        text = f"{names[0]} has unsaved changes."
    else:
        text = f"{len(names)} files have unsaved changes: {', '.join(names[:5])}" + (
            "…" if len(names) > 5 else ".")
    return _box(parent, QMessageBox.Icon.Warning, "Unsaved changes", text,
                "Save them before closing? Discarding loses them for good.",
                Button.Save | Button.Discard | Button.Cancel, Button.Save)


def changed_on_disk(parent: QWidget | None, path: Path) -> QMessageBox:
    """Reload (lose edits) or keep the edits, for a dirty file another program changed."""
    box = _box(parent, QMessageBox.Icon.Question, "File changed on disk",
               f"{path} was changed by another program, and you have unsaved changes to it.",
               "Reload it and lose your changes, or keep your version (saving will replace "
               "the other program's changes)?",
               Button.Yes | Button.No, Button.No)
    box.button(Button.Yes).setText("Reload from disk")
    box.button(Button.No).setText("Keep my changes")
    return box


def delete_skill(parent: QWidget | None, directory: Path,
                 linked: Sequence[Path] = ()) -> QMessageBox:
    """`linked`: the links that lead to the folder (core `links_to`); they stop working."""
    box = _box(parent, QMessageBox.Icon.Warning, "Delete skill",
               f"Delete the skill folder {directory.name} and everything in it?",
               f"{directory} will be moved to the trash." + _links_break(linked),
               Button.Yes | Button.Cancel, Button.Cancel)
    box.button(Button.Yes).setText("Delete")
    return box


def remove_installed(parent: QWidget | None, directory: Path,
                     linked: Sequence[Path]) -> QMessageBox:
    """Asked before removing an installed skill: its folder, the links to it, its lock entry."""
    box = _box(parent, QMessageBox.Icon.Warning, "Remove installed skill",
               f"Remove {directory.name}, the links to it and its entry in skills-lock.json?",
               f"{directory} is deleted; install it again to get it back."
               + _links_break(linked).replace("will lead nowhere", "are removed too"),
               Button.Yes | Button.Cancel, Button.Cancel)
    box.button(Button.Yes).setText("Remove")
    return box


def sync_discards(parent: QWidget | None, differences: str) -> QMessageBox:
    """Asked before Sync puts the locked files back over skills whose files differ."""
    box = _box(parent, QMessageBox.Icon.Warning, "Sync with skills-lock.json",
               "Sync replaces these skills with the files skills-lock.json records:",
               differences + "\n\nWhat differs (your edits included) is lost.",
               Button.Yes | Button.Cancel, Button.Cancel)
    box.button(Button.Yes).setText("Sync")
    return box


def delete_permanently(parent: QWidget | None, directory: Path, why: str) -> QMessageBox:
    """Asked when the trash refused a folder: deleting it for good is a second, explicit choice."""
    box = _box(parent, QMessageBox.Icon.Critical, "Delete skill permanently",
               f"{directory.name} could not be moved to the trash: {why}",
               f"Delete {directory} and everything in it permanently instead? This cannot be "
               "undone. Cancel keeps the folder as it is.",
               Button.Yes | Button.Cancel, Button.Cancel)
    box.button(Button.Yes).setText("Delete permanently")
    return box


def links_break(parent: QWidget | None, directory: Path, linked: Sequence[Path]) -> QMessageBox:
    """Asked before renaming a skill folder other places link to."""
    box = _box(parent, QMessageBox.Icon.Warning, "Rename linked skill",
               f"Other places link to {directory.name}.",
               "Renaming it leaves those links leading nowhere." + _links_break(linked),
               Button.Yes | Button.Cancel, Button.Cancel)
    box.button(Button.Yes).setText("Rename anyway")
    return box


def _links_break(linked: Sequence[Path]) -> str:
    if not linked:
        return ""
    shown = "\n".join(f"  {path}" for path in linked[:10])
    more = f"\n  and {len(linked) - 10} more" if len(linked) > 10 else ""
    return (f"\n\n{len(linked)} link{'s' if len(linked) != 1 else ''} to it will lead "
            f"nowhere (a client such as Claude Code or Codex reads the skill through them):\n"
            f"{shown}{more}")


def rename_folder(parent: QWidget | None, directory: Path, new_name: str) -> QMessageBox:
    box = _box(parent, QMessageBox.Icon.Question, "Rename folder",
               f"Rename the folder {directory.name} to {new_name}?",
               "The skill is saved first, then its folder is renamed.",
               Button.Yes | Button.Cancel, Button.Yes)
    box.button(Button.Yes).setText("Save and rename")
    return box


def information(parent: QWidget | None, title: str, text: str,
                icon: QMessageBox.Icon = QMessageBox.Icon.Warning) -> QMessageBox:
    return _box(parent, icon, title, text, "", Button.Ok, Button.Ok)

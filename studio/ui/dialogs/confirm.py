"""The questions the studio asks: message boxes built here, opened and awaited by the caller."""

from __future__ import annotations

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


def delete_skill(parent: QWidget | None, directory: Path) -> QMessageBox:
    box = _box(parent, QMessageBox.Icon.Warning, "Delete skill",
               f"Delete the skill folder {directory.name} and everything in it?",
               f"{directory} will be moved to the trash.",
               Button.Yes | Button.Cancel, Button.Cancel)
    box.button(Button.Yes).setText("Delete")
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

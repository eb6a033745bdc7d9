"""Writing an untitled draft (a skill the model drafted, or one recovered without its folder) to
disk for the first time: the user picks the folder, and the skill's folder is named as its
`name:` says."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from studio.agent import write_new_skill
from studio.skills import SKILL_FILE
from studio.skills.checks import names
from studio.skills.library import Library
from studio.ui import asyncqt
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.status_messages import Feedback


async def write_untitled(tab: SkillEditorTab, library: Library, feedback: Feedback) -> Path | None:
    """Ask which folder the draft goes in and create its skill folder there; the new folder, or
    None when the user cancelled or it could not be written (the draft stays in its tab)."""
    roots = [state.path for state in library.roots()
             if not state.root.read_only and state.path.is_dir()]
    dialog = QFileDialog(feedback.parent, "Save the skill in which folder?",
                         str(roots[0]) if roots else "")
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly)
    dialog.setLabelText(QFileDialog.DialogLabel.Accept, "Save Here")
    if await asyncqt.ask(dialog) != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
        return None
    parent = Path(dialog.selectedFiles()[0])
    name = tab.doc.skill.name or tab.directory.name
    if not names.is_valid_name(name):
        feedback.tell("Not saved", f"“{name}” cannot be a skill's folder name. Give the "
                      "skill a valid name (lowercase letters, digits and hyphens) in "
                      "the form, then save again.")
        return None
    target = parent / names.normalize_name(name)
    try:
        write_new_skill(target, {SKILL_FILE: tab.text()})
    except FileExistsError:
        feedback.tell("Not saved", f"{target} already exists. Pick another folder, or "
                      "rename the skill in the form, then save again.")
        return None
    except OSError as exc:
        feedback.tell("Not saved", f"{target} could not be written: {exc.strerror or exc}. "
                      "The draft is still in the editor; pick another folder.")
        return None
    return target

"""What is done to whole skills: create, rename, delete, and apply a fix. Every question to the
user is a dialog opened with `open()` and awaited (`studio.ui.asyncqt`), never a nested event
loop."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialog

from studio.editing import set_field
from studio.skills import parse_skill
from studio.skills.checks import fixes
from studio.skills.install import scaffold
from studio.skills.library import Library, Problem
from studio.skills.scan import enclosing_zip, links_to
from studio.ui import asyncqt, confirm
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.tabs import EditorTabs
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.roots import summary_of
from studio.ui.library.skill_name import NewSkillDialog, RenameSkillDialog
from studio.ui.status_messages import Feedback


def remove_folder(path: Path) -> None:
    """Delete a folder and everything in it, for good (a module function, so tests can replace it)."""
    shutil.rmtree(path)


def trash(path: Path) -> None:
    """Move a file or folder to the platform's trash (a module function, so tests can replace it)."""
    from send2trash import send2trash

    send2trash(str(path))


class SkillOperations:
    """New, rename, delete and fix, on the skill the user means (the library's selection when
    the library has the focus, else the open tab's)."""

    def __init__(self, library: Library, editors: EditorTabs, panel: LibraryPanel,
                 feedback: Feedback, fixable_problem: Callable[[], Problem | None]) -> None:
        self._library = library
        self._editors = editors
        self._panel = panel
        self._feedback = feedback
        self._fixable_problem = fixable_problem

    def target_directory(self) -> Path | None:
        """The skill the user means: the one selected in the library when it has the focus, else
        the open tab's, else the library's selection."""
        return self._target_directory()

    def _target_directory(self) -> Path | None:
        focus = QApplication.focusWidget()
        if focus is not None and self._panel.isAncestorOf(focus):
            summary = self._panel.selected_summary()
            if summary is not None:
                return summary.directory
        tab = self._editors.current_skill_tab()
        if tab is not None:
            return tab.directory
        summary = self._panel.selected_summary()
        return summary.directory if summary is not None else None

    # -- new ---------------------------------------------------------------------------------------------

    async def new_skill(self) -> SkillEditorTab | None:
        roots = [state.path for state in self._library.roots()
                 if not state.root.read_only and state.path.is_dir()]
        if not roots:
            self._feedback.tell("No folder for the skill", "Add a folder of skills first "
                                "(Ctrl+O), then create the skill in it.")
            return None
        dialog = NewSkillDialog(roots, self._panel.selected_root(), self._feedback.parent)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        parent = dialog.parent_folder()
        assert parent is not None
        try:
            skill_file = scaffold.create_skill(parent, dialog.name)
        except scaffold.ScaffoldError as exc:
            self._feedback.tell("Skill not created", str(exc))
            return None
        root = self._library.deepest_root(parent)
        self._library.update_skill(summary_of(skill_file.parent,
                                              root.path if root is not None else parent,
                                              self._library.target_of(parent)))
        return self._editors.open_skill(skill_file.parent)

    # -- rename --------------------------------------------------------------------------------------------

    async def rename_skill(self, directory: Path | None = None) -> bool:
        directory = directory or self._target_directory()
        if directory is None:
            self._feedback.status("Select a skill in the library, or open one, to rename it.")
            return False
        if enclosing_zip(directory) is not None:
            self._feedback.status("Skills inside a zip archive cannot be renamed.")
            return False
        dialog = RenameSkillDialog(directory, self._feedback.parent)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return False
        linked = self._links_to(directory)
        if linked and not await asyncqt.confirmed(
                confirm.links_break(self._feedback.parent, directory, linked)):
            return False
        return self.rename_to(directory, dialog.name)

    def _links_to(self, directory: Path) -> list[Path]:
        """The links that lead to the skill folder (the skills CLI's from each client's folder):
        deleting or renaming it leaves them leading nowhere."""
        return links_to(directory, [state.path for state in self._library.roots()
                                    if not state.root.read_only])

    def rename_to(self, directory: Path, new_name: str) -> bool:
        """Set `name:` and rename the folder together; nothing changes if either step fails."""
        target = directory.parent / new_name
        if target.exists():
            self._feedback.tell("Not renamed", f"{target} already exists. Pick another name.")
            return False
        tab = self._editors.skill_tab(directory)
        if tab is not None:
            if not tab.set_field("name", new_name) or not self._editors.save(tab):
                return False
        elif not self._set_name_on_disk(directory, new_name):
            return False
        return self.rename_folder(directory, new_name)

    def _set_name_on_disk(self, directory: Path, new_name: str) -> bool:
        """Set `name:` in the SKILL.md of a skill no tab holds, through the core's fix plan: the
        whole file is read (not the validator's first MiB), only the frontmatter may change,
        and a file changed meanwhile or reached through a link out of its root is refused."""
        root = self._library.deepest_root(directory)
        try:
            plan = fixes.plan_fixes(directory, set(), root=root.path if root is not None else None)
            whole = parse_skill(plan.original.encode("utf-8"), plan.skill_file,
                                directory=directory, max_bytes=None)
            text = set_field(whole, "name", new_name) if plan.original else None
            if text is None:
                self._feedback.tell("Not renamed", f"The frontmatter of {plan.skill_file} cannot "
                                    "be read, so `name:` cannot be set. Fix it first (open the "
                                    "skill).")
                return False
            plan.fixed = text
            fixes.apply_plan(plan)
        except fixes.FixError as exc:
            self._feedback.tell("Not renamed", f"{exc}.")
            return False
        return True

    def rename_folder(self, directory: Path, new_name: str) -> bool:
        target = directory.parent / new_name
        if target.exists():
            self._feedback.tell("Not renamed", f"{target} already exists. Pick another name.")
            return False
        try:
            os.rename(directory, target)
        except OSError as exc:
            self._feedback.tell("Not renamed", f"The folder {directory} could not be renamed to "
                                f"{new_name}: {exc.strerror or exc}.")
            return False
        known = self._library.summary_for(directory)
        root = known.root if known is not None else directory.parent
        self._library.update_skill(summary_of(target, root, self._library.target_of(directory)),
                                   old_directory=directory)
        self._editors.follow_rename(directory, target)
        self._panel.select_skill(target)
        self._feedback.status(f"Renamed {directory.name} to {new_name}")
        return True

    # -- delete ---------------------------------------------------------------------------------------------

    async def delete_skill(self, directory: Path | None = None) -> bool:
        directory = directory or self._target_directory()
        if directory is None:
            self._feedback.status("Select a skill in the library, or open one, to delete it.")
            return False
        if enclosing_zip(directory) is not None:
            self._feedback.status("Skills inside a zip archive cannot be deleted here.")
            return False
        parent = self._feedback.parent
        if not await asyncqt.confirmed(
                confirm.delete_skill(parent, directory, self._links_to(directory))):
            return False
        done = "Moved {} to the trash"
        try:
            trash(directory)
        except Exception as exc:  # send2trash raises its own errors besides OSError
            why = str(exc) or type(exc).__name__
            if not await asyncqt.confirmed(confirm.delete_permanently(parent, directory, why)):
                self._feedback.status(f"{directory.name} was not deleted")
                return False
            try:
                remove_folder(directory)
            except OSError as error:
                self._feedback.tell("Not fully deleted", f"{directory} could not be deleted: "
                                    f"{error}. What is left of it is still there; press F5 to "
                                    "see it.")
                return False
            done = "Deleted {} permanently"
        self._editors.close_below(directory)
        self._library.remove_skill(directory)
        self._feedback.status(done.format(directory.name))
        return True

    # -- fixes ---------------------------------------------------------------------------------------

    async def apply_fix(self, problem: Problem | None = None) -> bool:
        """Apply the fix of `problem` (or the best fixable problem of the current skill)."""
        editors = self._editors
        tab = editors.skill_tab(problem.directory) if problem else editors.current_skill_tab()
        if tab is None:
            self._feedback.status("Open the skill to apply a fix to it.")
            return False
        if problem is None or problem.diagnostic.fix is None:
            panel_choice = self._fixable_problem()
            if panel_choice is not None and panel_choice.directory == tab.directory:
                problem = panel_choice
            else:
                fixable = [d for d in tab.diagnostics if d.fix is not None]
                line = tab.body_editor.current_line()
                fixable.sort(key=lambda d: (d.line != line, d.line))
                if not fixable:
                    self._feedback.status(f"No automatic fix is offered for {tab.title}.")
                    return False
                problem = Problem(tab.directory, tab.title, fixable[0])
        if tab.doc.read_only:
            self._feedback.status(f"{tab.title} is read-only; fixes cannot be applied.")
            return False
        diagnostic = tab.fresh_diagnostic(problem.diagnostic)
        if diagnostic is None or diagnostic.fix is None:
            self._feedback.status("That problem is already gone.")
            return False
        fix = diagnostic.fix
        if fix.rename_directory_to:
            if not await asyncqt.confirmed(
                    confirm.rename_folder(self._feedback.parent, tab.directory,
                                          fix.rename_directory_to)):
                return False
            if not editors.save(tab):
                return False
            return self.rename_folder(tab.directory, fix.rename_directory_to)
        why = tab.apply_fix(diagnostic)
        if why is not None:
            self._feedback.tell("Fix not applied", f"{diagnostic.code}: {fix.title} was not "
                                f"applied: {why}. Edit the text by hand instead.")
            return False
        self._feedback.status(f"Applied: {fix.title}")
        return True

"""What the studio does to skills and files: open, save, close, fix, rename, delete, create, and
react to changes on disk. Every question to the user is a dialog opened with `open()` and
awaited (`studio.ui.asyncqt`), never a nested event loop.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from studio.editing.autosave import AutosaveEntry
from studio.editing.frontmatter_edit import set_field
from studio.fsutil import atomic_write_text
from studio.skills.files import SKIPPED_DIRS, load_skill, load_zip_skills, skill_file_in
from studio.skills.library import SkillRoot
from studio.skills.model import SKILL_FILE, Skill
from studio.skills.parse import parse_skill
from studio.skills.scaffold import ScaffoldError, create_skill
from studio.skills.stamps import Stamp
from studio.skills.summary import SkillSummary
from studio.skills.validate import validate_skill
from studio.skills.walk import discover
from studio.ui import asyncqt
from studio.ui.dialogs import confirm
from studio.ui.dialogs.settings_dialog import SettingsDialog
from studio.ui.dialogs.skill_name import NewSkillDialog, RenameSkillDialog
from studio.ui.models.problems_model import Problem
from studio.ui.theme import editor_font
from studio.ui.widgets.editor_tab import SkillEditorTab
from studio.ui.widgets.file_tab import FileTab, decode_text, read_text_file

if TYPE_CHECKING:
    from studio.ui.mainwindow import MainWindow, Tab

Button = QMessageBox.StandardButton
# New skills found below a changed folder that are validated on the spot; more (a pack copied
# in) and the root is rescanned in the background instead.
LIVE_SKILLS = 50


def remove_folder(path: Path) -> None:
    """Delete a folder and everything in it, for good (a module function, so tests can replace it)."""
    shutil.rmtree(path)


def trash(path: Path) -> None:
    """Move a file or folder to the platform's trash (a module function, so tests can replace it)."""
    from send2trash import send2trash

    send2trash(str(path))


def _zip_parts(path: Path) -> tuple[Path, PurePosixPath] | None:
    """(archive, member) when `path` points inside a .zip file."""
    for parent in path.parents:
        if parent.suffix.lower() == ".zip" and parent.is_file():
            return parent, PurePosixPath(path.relative_to(parent).as_posix())
    return None


class SkillActions:
    """The window's verbs. Slots named `*_clicked` start the matching coroutine."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window

    # -- small helpers -------------------------------------------------------------------------------

    def tell(self, title: str, text: str) -> QMessageBox:
        """Show a message without waiting for it (the user closes it when done reading)."""
        box = confirm.information(self.window, title, text)
        box.open()
        return box

    def status(self, text: str, timeout_ms: int = 8000) -> None:
        self.window.statusBar().showMessage(text, timeout_ms)

    def _summary_of(self, directory: Path, root: Path | None = None) -> SkillSummary:
        known = self.window.library_model.summary_for(directory)
        root = root or (known.root if known is not None else directory.parent)
        return SkillSummary.from_result(root, validate_skill(load_skill(directory)))

    # -- opening --------------------------------------------------------------------------------------

    def open_summary(self, summary: object) -> SkillEditorTab | None:
        if not isinstance(summary, SkillSummary):
            return None
        if summary.read_only:
            return self.open_zip_skill(summary.root, summary.directory)
        return self.open_skill(summary.directory)

    def open_skill(self, directory: Path) -> SkillEditorTab | None:
        """Open (or switch to) the tab of the skill in `directory`."""
        window = self.window
        existing = window.skill_tab(directory)
        if existing is not None:
            window.tabs.setCurrentWidget(existing)
            return existing
        if not directory.is_dir():
            parts = _zip_parts(directory)
            if parts is not None:
                return self.open_zip_skill(parts[0], directory)
            self.status(f"{directory} no longer exists; rescan the library (F5).")
            return None
        return self._open(load_skill(directory))

    def open_zip_skill(self, archive: Path, directory: Path) -> SkillEditorTab | None:
        existing = self.window.skill_tab(directory)
        if existing is not None:
            self.window.tabs.setCurrentWidget(existing)
            return existing
        try:
            skills = load_zip_skills(archive)
        except (OSError, zipfile.BadZipFile, RuntimeError, ValueError) as exc:
            self.tell("Cannot open the skill", f"The archive {archive} cannot be read: {exc}")
            return None
        for skill in skills:
            if skill.directory == directory:
                return self._open(skill)
        self.status(f"{directory} is no longer in {archive.name}; rescan the library (F5).")
        return None

    def _open(self, skill: Skill) -> SkillEditorTab:
        tab = SkillEditorTab(skill, self.window.code_font)
        self.window.add_tab(tab, str(skill.path))
        self.window.library_panel.select_skill(skill.directory)
        return tab

    def open_library_file(self, summary: object, path: Path) -> None:
        if isinstance(summary, SkillSummary) and path.name == summary.skill_file.name and (
                path.parent == summary.directory):
            self.open_summary(summary)
            return
        self.open_file(path)

    def open_file(self, path: Path, line: int = 1) -> FileTab | SkillEditorTab | None:
        """Open a file of a skill in a plain editor tab (read-only inside a zip)."""
        window = self.window
        if path.name in (SKILL_FILE, SKILL_FILE.lower()):
            tab = self.open_skill(path.parent)
            return tab
        existing = window.tab_for_path(path)
        if isinstance(existing, FileTab):
            window.tabs.setCurrentWidget(existing)
            existing.go_to(line)
            return existing
        parts = _zip_parts(path)
        if parts is not None:
            archive, member = parts
            try:
                with zipfile.ZipFile(archive) as opened:
                    data = opened.read(str(member))
            except (OSError, KeyError, zipfile.BadZipFile) as exc:
                self.tell("Cannot open the file", f"{member} cannot be read from {archive}: {exc}")
                return None
            text, why = decode_text(path.name, data)
            file_tab = FileTab(path, text, window.code_font, read_only=True, why=why)
        else:
            if not path.is_file():
                self.status(f"{path} does not exist.")
                return None
            text, why = read_text_file(path)
            file_tab = FileTab(path, text, window.code_font, why=why)
        window.add_tab(file_tab, str(path))
        file_tab.go_to(line)
        return file_tab

    def go_to_problem(self, problem: Problem) -> None:
        tab = self.window.skill_tab(problem.directory)
        if tab is None:
            summary = self.window.library_model.summary_for(problem.directory)
            tab = self.open_summary(summary) if summary is not None else self.open_skill(
                problem.directory)
        if tab is not None:
            self.window.tabs.setCurrentWidget(tab)
            tab.show_diagnostic(problem.diagnostic)

    # -- saving and closing --------------------------------------------------------------------------

    def save(self, tab: Tab) -> bool:
        """Write the tab's text atomically; a failure is shown, and the edits stay."""
        if tab.read_only:
            self.status(f"{tab.path.name} is read-only and cannot be saved.")
            return False
        try:
            tab.save()
        except OSError as exc:
            self.tell("Not saved", f"{tab.path} could not be written: {exc.strerror or exc}. "
                      "Your changes are still in the editor; check the folder's permissions "
                      "and save again.")
            return False
        window = self.window
        window.forget_autosave(tab.path)
        window.watcher.rearm(tab.path)
        if isinstance(tab, SkillEditorTab):
            known = window.library_model.summary_for(tab.directory)
            root = known.root if known is not None else tab.directory.parent
            if known is not None:
                window.library_model.update_skill(
                    SkillSummary.from_result(root, tab.doc.validate_now()))
        window.update_tab_title(tab)
        self.status(f"Saved {tab.path}")
        return True

    async def close_tab(self, tab: Tab) -> bool:
        """Close a tab, asking first when it has unsaved changes; False if the user cancelled."""
        if not await self.confirm_close([tab]):
            return False
        self.window.remove_tab(tab)
        return True

    async def confirm_close(self, tabs: list[Tab]) -> bool:
        """Ask about unsaved changes: Save (all), Discard, or Cancel (False)."""
        dirty = [tab for tab in tabs if tab.dirty]
        if not dirty:
            return True
        self.window.tabs.setCurrentWidget(dirty[0])
        box = confirm.unsaved_changes(self.window, [tab.title for tab in dirty])
        await asyncqt.choose(box)
        answer = box.standardButton(box.clickedButton()) if box.clickedButton() else Button.Cancel
        if answer == Button.Save:
            return all(self.save(tab) for tab in dirty)
        if answer == Button.Discard:
            for tab in dirty:
                self.window.forget_autosave(tab.path)
            return True
        return False

    # -- fixes ------------------------------------------------------------------------------------------

    async def apply_fix(self, problem: Problem | None = None) -> bool:
        """Apply the fix of `problem` (or the best fixable problem of the current skill)."""
        window = self.window
        tab = window.skill_tab(problem.directory) if problem else window.current_skill_tab()
        if tab is None:
            self.status("Open the skill to apply a fix to it.")
            return False
        if problem is None or problem.diagnostic.fix is None:
            panel_choice = window.problems_panel.fixable_problem()
            if panel_choice is not None and panel_choice.directory == tab.directory:
                problem = panel_choice
            else:
                fixable = [d for d in tab.diagnostics if d.fix is not None]
                line = tab.body_editor.current_line()
                fixable.sort(key=lambda d: (d.line != line, d.line))
                if not fixable:
                    self.status(f"No automatic fix is offered for {tab.title}.")
                    return False
                problem = Problem(tab.directory, tab.title, fixable[0])
        if tab.doc.read_only:
            self.status(f"{tab.title} is read-only; fixes cannot be applied.")
            return False
        diagnostic = tab.fresh_diagnostic(problem.diagnostic)
        if diagnostic is None or diagnostic.fix is None:
            self.status("That problem is already gone.")
            return False
        fix = diagnostic.fix
        if fix.rename_directory_to:
            box = confirm.rename_folder(window, tab.directory, fix.rename_directory_to)
            await asyncqt.ask(box)
            if box.standardButton(box.clickedButton()) != Button.Yes:
                return False
            if not self.save(tab):
                return False
            return self.rename_folder(tab.directory, fix.rename_directory_to)
        tab.apply_fix(fix)
        self.status(f"Applied: {fix.title}")
        return True

    # -- rename, delete, new ----------------------------------------------------------------------------

    def _target_directory(self) -> Path | None:
        window = self.window
        focus = window.focusWidget()
        if focus is not None and window.library_panel.isAncestorOf(focus):
            summary = window.library_panel.selected_summary()
            if summary is not None:
                return summary.directory
        tab = window.current_skill_tab()
        if tab is not None:
            return tab.directory
        summary = window.library_panel.selected_summary()
        return summary.directory if summary is not None else None

    async def rename_skill(self, directory: Path | None = None) -> bool:
        directory = directory or self._target_directory()
        if directory is None:
            self.status("Select a skill in the library, or open one, to rename it.")
            return False
        if _zip_parts(directory) is not None:
            self.status("Skills inside a zip archive cannot be renamed.")
            return False
        dialog = RenameSkillDialog(directory, self.window)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return False
        return self.rename_to(directory, dialog.name)

    def rename_to(self, directory: Path, new_name: str) -> bool:
        """Set `name:` and rename the folder together; nothing changes if either step fails."""
        target = directory.parent / new_name
        if target.exists():
            self.tell("Not renamed", f"{target} already exists. Pick another name.")
            return False
        tab = self.window.skill_tab(directory)
        if tab is not None:
            if not tab.set_field("name", new_name) or not self.save(tab):
                return False
        else:
            skill = load_skill(directory)
            text = set_field(skill, "name", new_name)
            if text is None:
                self.tell("Not renamed", f"The frontmatter of {skill.path} cannot be read, so "
                          "`name:` cannot be set. Fix it first (open the skill).")
                return False
            try:
                atomic_write_text(skill.path, text)
            except OSError as exc:
                self.tell("Not renamed", f"{skill.path} could not be written: {exc}")
                return False
        return self.rename_folder(directory, new_name)

    def rename_folder(self, directory: Path, new_name: str) -> bool:
        window = self.window
        target = directory.parent / new_name
        if target.exists():
            self.tell("Not renamed", f"{target} already exists. Pick another name.")
            return False
        try:
            os.rename(directory, target)
        except OSError as exc:
            self.tell("Not renamed", f"The folder {directory} could not be renamed to "
                      f"{new_name}: {exc.strerror or exc}.")
            return False
        for tab in window.editor_tabs():
            if tab.path.is_relative_to(directory):
                window.watcher.unwatch_file(tab.path)
                window.forget_autosave(tab.path)
                if isinstance(tab, SkillEditorTab):
                    tab.doc.retarget(target)
                    tab.doc.validate_now()
                else:
                    tab.retarget(target / tab.path.relative_to(directory))
                window.watcher.watch_file(tab.path)
                window.update_tab_title(tab)
        known = window.library_model.summary_for(directory)
        root = known.root if known is not None else directory.parent
        window.library_model.update_skill(self._summary_of(target, root), old_directory=directory)
        window.library_panel.select_skill(target)
        self.status(f"Renamed {directory.name} to {new_name}")
        return True

    async def delete_skill(self, directory: Path | None = None) -> bool:
        directory = directory or self._target_directory()
        if directory is None:
            self.status("Select a skill in the library, or open one, to delete it.")
            return False
        if _zip_parts(directory) is not None:
            self.status("Skills inside a zip archive cannot be deleted here.")
            return False
        box = confirm.delete_skill(self.window, directory)
        await asyncqt.ask(box)
        if box.standardButton(box.clickedButton()) != Button.Yes:
            return False
        done = "Moved {} to the trash"
        try:
            trash(directory)
        except Exception as exc:  # send2trash raises its own errors besides OSError
            box = confirm.delete_permanently(self.window, directory, str(exc) or type(exc).__name__)
            await asyncqt.ask(box)
            if box.standardButton(box.clickedButton()) != Button.Yes:
                self.status(f"{directory.name} was not deleted")
                return False
            try:
                remove_folder(directory)
            except OSError as error:
                self.tell("Not fully deleted", f"{directory} could not be deleted: {error}. "
                          "What is left of it is still there; press F5 to see it.")
                return False
            done = "Deleted {} permanently"
        window = self.window
        for tab in window.editor_tabs():
            if tab.path.is_relative_to(directory):
                window.remove_tab(tab)
        window.library_model.remove_skill(directory)
        self.status(done.format(directory.name))
        return True

    async def new_skill(self) -> SkillEditorTab | None:
        window = self.window
        roots = [node.scan.root.path for node in window.library_model.roots()
                 if not node.scan.root.read_only and node.scan.root.path.is_dir()]
        if not roots:
            self.tell("No folder for the skill", "Add a folder of skills first (Ctrl+O), then "
                      "create the skill in it.")
            return None
        dialog = NewSkillDialog(roots, window.library_panel.selected_root(), window)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        parent = dialog.parent_folder()
        assert parent is not None
        try:
            skill_file = create_skill(parent, dialog.name)
        except ScaffoldError as exc:
            self.tell("Skill not created", str(exc))
            return None
        window.library_model.update_skill(self._summary_of(skill_file.parent, parent))
        return self.open_skill(skill_file.parent)

    # -- roots --------------------------------------------------------------------------------------------

    def add_root(self, path: Path) -> None:
        window = self.window
        path = path.expanduser()
        if window.library_model.root_node(path) is not None:
            self.status(f"{path} is already in the library.")
            return
        settings = window.settings
        if str(path) not in settings.roots:
            settings.roots.append(str(path))
            if not window.store.save():
                self.status("The settings file could not be read, so it was not replaced; "
                            "save the settings (File ▸ Settings) to keep this root.", 12000)
        root = SkillRoot(path, settings.include_hidden)
        window.scan([root])
        if not root.is_zip:
            window.watcher.watch_folder(path)

    def add_location(self, path: Path) -> None:
        if not path.exists():
            try:
                path.mkdir(parents=True)
            except OSError as exc:
                self.tell("Folder not created", f"{path} could not be created: {exc}")
                return
        self.add_root(path)

    def remove_root(self, path: Path | None = None) -> None:
        window = self.window
        path = path or window.library_panel.selected_root()
        if path is None:
            self.status("Select a root in the library to remove it.")
            return
        settings = window.settings
        if str(path) in settings.roots:
            settings.roots.remove(str(path))
            window.store.save()
        window.session_roots = [p for p in window.session_roots if p != path]
        window.library_model.remove_root(path)
        window.watcher.unwatch_folders(window.watcher.folders_below(path))
        self.status(f"Removed {path} from the library (nothing was deleted).")

    async def pick_root(self, zip_file: bool) -> None:
        if zip_file:
            dialog = QFileDialog(self.window, "Add a zip archive of skills", str(Path.home()),
                                 "Zip archives (*.zip)")
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        else:
            dialog = QFileDialog(self.window, "Add a folder of skills", str(Path.home()))
            dialog.setFileMode(QFileDialog.FileMode.Directory)
            dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        if await asyncqt.ask(dialog) == QDialog.DialogCode.Accepted and dialog.selectedFiles():
            self.add_root(Path(dialog.selectedFiles()[0]))

    def library_folder_changed(self, folder: Path) -> None:
        """Skill folders appeared in or vanished from a root or a folder below it: update the
        library in place, and watch any new folder that is not a skill. A large new tree (a
        pack of skills copied in) is left to a rescan of its root, in the background."""
        window = self.window
        model = window.library_model
        nodes = [n for n in model.roots() if not n.scan.root.read_only
                 and (folder == n.scan.root.path or folder.is_relative_to(n.scan.root.path))]
        if not nodes:
            return
        node = max(nodes, key=lambda n: len(n.scan.root.path.parts))
        root = node.scan.root
        if not folder.is_dir():
            self._forget_folder(node.scan.skills, folder)
            return
        try:
            entries = [entry for entry in folder.iterdir() if entry.is_dir()
                       and entry.name not in SKIPPED_DIRS
                       and (root.include_hidden or not entry.name.startswith("."))]
            present = {entry for entry in entries if skill_file_in(os.listdir(entry)) is not None}
        except OSError:
            return
        known = {s.directory for s in node.scan.skills if s.directory.parent == folder}
        for directory in known - present:
            if window.skill_tab(directory) is None:
                model.remove_skill(directory)
        for watched in window.watcher.folders_below(folder):
            if watched.parent == folder and not watched.is_dir():
                self._forget_folder(node.scan.skills, watched)
        new_skills = sorted(present - known)
        new_folders: list[Path] = []
        for entry in sorted(set(entries) - present):
            if window.watcher.watches_folder(entry):
                continue
            stamps: list[Stamp] = []
            new_skills.extend(directory for directory, _ in discover(entry, root.include_hidden, stamps))
            new_folders.extend(Path(stamp[0]) for stamp in stamps)
            if len(new_skills) > LIVE_SKILLS:
                window.scan([root])
                return
        window.watcher.watch_folders(new_folders)
        for directory in new_skills:
            model.update_skill(self._summary_of(directory, root.path))

    def _forget_folder(self, skills: list[SkillSummary], folder: Path) -> None:
        """A folder below a root is gone: so are the skills in it (but those open in a tab)."""
        window = self.window
        for summary in list(skills):
            if summary.directory.is_relative_to(folder) and window.skill_tab(summary.directory) is None:
                window.library_model.remove_skill(summary.directory)
        window.watcher.unwatch_folders(window.watcher.folders_below(folder))

    # -- changes on disk, autosave ------------------------------------------------------------------------

    async def file_changed_on_disk(self, path: Path) -> None:
        window = self.window
        tab = window.tab_for_path(path)
        if tab is None:
            return
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            tab.document.setModified(True)
            self.status(f"{path} was deleted or moved by another program; save (Ctrl+S) to "
                        "write it again.", 15000)
            return
        except OSError:
            return
        disk = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        if disk == tab.disk_text:
            return
        if tab.dirty:
            box = confirm.changed_on_disk(window, path)
            await asyncqt.ask(box)
            if box.standardButton(box.clickedButton()) != Button.Yes:
                tab.disk_text = disk
                return
        tab.reload(data.decode("utf-8", errors="replace"))
        if isinstance(tab, SkillEditorTab):
            known = window.library_model.summary_for(tab.directory)
            if known is not None:
                window.library_model.update_skill(
                    SkillSummary.from_result(known.root, tab.doc.result))
        window.forget_autosave(path)
        window.update_tab_title(tab)
        self.status(f"Reloaded {path.name}: another program changed it.")

    async def restore_autosaves(self) -> int:
        """Offer back every autosave left by a crash; returns how many were restored."""
        window = self.window
        restored = 0
        for entry in window.autosave.entries():
            box = confirm.restore_autosave(window, entry.path, entry.when)
            await asyncqt.ask(box)
            if box.standardButton(box.clickedButton()) == Button.Yes:
                if self._restore(entry):
                    restored += 1
            else:
                window.autosave.discard(entry.path)
        return restored

    def _restore(self, entry: AutosaveEntry) -> bool:
        window = self.window
        if entry.kind == "file":
            tab = self.open_file(entry.path)
            if tab is None:
                parts = entry.path.parent
                file_tab = FileTab(entry.path, "", window.code_font)
                window.add_tab(file_tab, str(entry.path))
                self.status(f"{entry.path} no longer exists; save to create it in {parts}.")
                tab = file_tab
            tab.set_text(entry.text)
        else:
            directory = entry.path.parent
            skill_tab = self.open_skill(directory) if directory.is_dir() else None
            if skill_tab is None:
                skill = parse_skill(entry.text.encode("utf-8"), entry.path)
                skill_tab = self._open(skill)
                skill_tab.doc.disk_text = ""
                skill_tab.doc.document.setModified(True)
            skill_tab.doc.set_text(entry.text)
        window.autosave_now()
        return True

    async def reopen_tabs(self) -> None:
        for text in self.window.settings.open_tabs:
            directory = Path(text)
            if self.window.skill_tab(directory) is None and (
                    directory.is_dir() or _zip_parts(directory) is not None):
                self.open_skill(directory)

    # -- settings -------------------------------------------------------------------------------------------

    async def open_settings(self) -> bool:
        window = self.window
        dialog = SettingsDialog(window.settings, window)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return False
        old_roots = set(window.root_paths())
        old_hidden = window.settings.include_hidden
        new = dialog.result_settings()
        window.store.settings = new
        window.settings = new
        try:
            window.store.save(explicit=True)
        except OSError as exc:
            self.tell("Settings not saved", f"{window.store.path} could not be written: {exc}")
        window.set_editor_font(editor_font(new.editor_font))
        new_roots = set(window.root_paths())
        for path in old_roots - new_roots:
            window.library_model.remove_root(path)
            window.watcher.unwatch_folders(window.watcher.folders_below(path))
        rescan = new_roots if new.include_hidden != old_hidden else new_roots - old_roots
        roots = [SkillRoot(path, new.include_hidden) for path in window.root_paths()
                 if path in rescan]
        if roots:
            window.scan(roots)
        for root in roots:
            if not root.is_zip:
                window.watcher.watch_folder(root.path)
        return True

    # -- slots for menus and shortcuts ----------------------------------------------------------------------

    def new_skill_clicked(self) -> None:
        self.window.tasks.spawn(self.new_skill())

    def add_folder_clicked(self) -> None:
        self.window.tasks.spawn(self.pick_root(zip_file=False))

    def add_zip_clicked(self) -> None:
        self.window.tasks.spawn(self.pick_root(zip_file=True))

    def remove_root_clicked(self) -> None:
        self.remove_root()

    def save_clicked(self) -> None:
        tab = self.window.current_tab()
        if tab is not None:
            self.save(tab)

    def close_tab_clicked(self) -> None:
        tab = self.window.current_tab()
        if tab is not None:
            self.window.tasks.spawn(self.close_tab(tab))

    def settings_clicked(self) -> None:
        self.window.tasks.spawn(self.open_settings())

    def undo_clicked(self) -> None:
        tab = self.window.current_tab()
        if tab is not None:
            tab.undo()

    def redo_clicked(self) -> None:
        tab = self.window.current_tab()
        if tab is not None:
            tab.redo()

    def fix_clicked(self) -> None:
        self.window.tasks.spawn(self.apply_fix())

    def rename_clicked(self) -> None:
        self.window.tasks.spawn(self.rename_skill())

    def delete_clicked(self) -> None:
        self.window.tasks.spawn(self.delete_skill())

    def rescan_clicked(self) -> None:
        window = self.window
        window.scan([SkillRoot(path, window.settings.include_hidden)
                     for path in window.root_paths()])

"""The library's roots: adding and removing them, scanning them and then watching them, and
keeping the library in step with skill folders that appear or vanish on disk."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QFileDialog

from studio.settings import SettingsStore
from studio.skills import SPEC, SkillSummary, load_skill, skill_file_in, walks_into
from studio.skills.checks import clients, validate_skill
from studio.skills.library import Library
from studio.skills.scan import SkillRoot, Stamp, discover, listing
from studio.ui import asyncqt
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.loader import LibraryLoader
from studio.ui.status_messages import Feedback
from studio.ui.watcher import FileWatcher

# New skills found below a changed folder that are validated on the spot; more (a pack copied
# in) and the root is rescanned in the background instead.
LIVE_SKILLS = 50
# A root with more rows than this stays collapsed after its scan: laying out that many rows at
# once would stall the window; the user opens it when they want it. Expanding a collection's
# root of 1,550 repository folders took 100 to 200 ms at the end of its scan (issue 27).
EXPAND_LIMIT = 500


def summary_of(directory: Path, root: Path, target: str = SPEC) -> SkillSummary:
    """A skill folder read and validated afresh for `target`, as the library shows it."""
    return validate_skill(load_skill(directory), target).summary(root)


class LibraryRoots(QObject):
    """Which roots the library has, and keeping their skills in step with the disk.

    Attributes:
        session_roots: roots given on the command line (not saved in the settings).
    """

    def __init__(self, library: Library, model: LibraryModel, loader: LibraryLoader,
                 watcher: FileWatcher, store: SettingsStore, panel: LibraryPanel,
                 feedback: Feedback, is_open: Callable[[Path], bool],
                 session_roots: Iterable[Path] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session_roots = list(session_roots)
        self._library = library
        self._model = model
        self._loader = loader
        self._watcher = watcher
        self._store = store
        self._panel = panel
        self._feedback = feedback
        self._is_open = is_open
        self._expand_when_scanned: set[Path] = set()
        model.files_requested.connect(self._on_model_files_requested)
        loader.root_scanned.connect(self._on_loader_root_scanned)
        loader.scan_finished.connect(self._on_loader_scan_finished)
        watcher.folder_changed.connect(self._on_watcher_folder_changed)

    def root_paths(self) -> list[Path]:
        """The roots of the settings, then those of the command line, each once."""
        paths: list[Path] = []
        for text in [*self._store.settings.roots, *map(str, self.session_roots)]:
            path = Path(text).expanduser()
            if path not in paths:
                paths.append(path)
        return paths

    # -- scanning ------------------------------------------------------------------------------------

    def scan_and_watch(self, paths: Iterable[Path]) -> None:
        """Scan roots (again) in the background, and watch the folders among them for changes.

        A new root stays collapsed while it fills (a tree view lays out every visible child on
        each insertion, which for thousands of skills would stall the window again and again)
        and opens when its scan is done."""
        settings = self._store.settings
        roots = [SkillRoot(path, settings.include_hidden) for path in paths]
        if not roots:
            return
        new = [root for root in roots if self._library.root(root.path) is None]
        self._expand_when_scanned.update(root.path for root in new)
        for root in roots:
            if not self._library.add_root(root, settings.target_of(root.path)):
                self._library.set_target(root.path, settings.target_of(root.path))
        again = [root for root in roots if root not in new]
        if again:
            self._loader.scan(again)
        if new:
            # A new root inside another already holds the skills found below it there
            # (`Library.add_root`): its scan replaces them in place rather than emptying it.
            self._loader.scan(new, refresh=True)
        for root in roots:
            if not root.is_zip:
                self._watcher.watch_folder(root.path)

    def start(self) -> None:
        """Scan every root (settings and command line); the window is already usable."""
        self.scan_and_watch(self.root_paths())

    def rescan(self) -> None:
        self.scan_and_watch(self.root_paths())

    def _on_loader_scan_finished(self) -> None:
        # The filter's matches held back to be shown together show now, all of them.
        self._panel.proxy.release()
        for path in sorted(self._expand_when_scanned):
            state = self._library.root(path)
            node = self._model.root_node(path)
            if state is not None and node is not None and len(node.children) <= EXPAND_LIMIT:
                self._panel.expand_root(path)
        self._expand_when_scanned.clear()

    def _on_loader_root_scanned(self, root: Path, folders: list[str]) -> None:
        state = self._library.root(root)
        if state is not None and not state.root.is_zip:
            self._watcher.watch_folders_below(root, folders)

    def _on_model_files_requested(self, summary: SkillSummary) -> None:
        self._model.set_files(summary, listing.skill_entries(summary))

    # -- targets --------------------------------------------------------------------------------------

    def set_target(self, path: Path, target: str) -> None:
        """Judge the root's skills for `target` (a key of `studio.skills.checks.clients.CLIENTS`) from
        now on: kept in the settings, and the skills validated again in the background, where
        the library shows each one's new findings as they arrive."""
        if target not in clients.CLIENTS:
            raise ValueError(f"unknown target {target!r}")
        settings = self._store.settings
        settings.set_target(path, target)
        if not self._store.save():
            self._feedback.status("The settings file could not be read, so it was not replaced; "
                                  "save the settings (File ▸ Settings) to keep this target.", 12000)
        if not self._library.set_target(path, target):
            return
        self._loader.scan([SkillRoot(path, settings.include_hidden)], refresh=True)
        name = path.name or str(path)
        self._feedback.status(f"Validating {name} for {clients.CLIENTS[target].title}…")

    # -- adding and removing roots -------------------------------------------------------------------

    def add_root(self, path: Path) -> None:
        path = path.expanduser()
        if self._library.root(path) is not None:
            self._feedback.status(f"{path} is already in the library.")
            return
        settings = self._store.settings
        if str(path) not in settings.roots:
            settings.roots.append(str(path))
            if not self._store.save():
                self._feedback.status("The settings file could not be read, so it was not "
                                      "replaced; save the settings (File ▸ Settings) to keep "
                                      "this root.", 12000)
        self.scan_and_watch([path])

    def add_location(self, path: Path) -> None:
        if not path.exists():
            try:
                path.mkdir(parents=True)
            except OSError as exc:
                self._feedback.tell("Folder not created", f"{path} could not be created: {exc}")
                return
        self.add_root(path)

    def remove_root(self, path: Path | None = None) -> None:
        path = path or self._panel.selected_root()
        if path is None:
            self._feedback.status("Select a root in the library to remove it.")
            return
        settings = self._store.settings
        if str(path) in settings.roots or str(path) in settings.root_targets:
            if str(path) in settings.roots:
                settings.roots.remove(str(path))
            settings.set_target(path, SPEC)
            self._store.save()
        self.session_roots = [p for p in self.session_roots if p != path]
        self.drop(path)
        self._feedback.status(f"Removed {path} from the library (nothing was deleted).")

    def drop(self, path: Path) -> None:
        """Take a root out of the library and stop watching it. Its skills inside another root
        are that root's now (`Library.remove_root`): still watched, and judged again when that
        root is judged for another client."""
        state = self._library.root(path)
        if state is None:
            return
        target = state.target
        self._library.remove_root(path)
        others = [other.path for other in self._library.roots()]
        self._watcher.unwatch_folders(
            [folder for folder in self._watcher.folders_below(path)
             if not any(folder.is_relative_to(other) for other in others)])
        around = self._library.deepest_root(path)
        if around is not None and around.target != target:
            self._loader.scan([SkillRoot(around.path, self._store.settings.include_hidden)],
                              refresh=True)

    def settings_changed(self, old_roots: set[Path], old_hidden: bool) -> None:
        """Follow new settings: drop the roots taken out, scan those added (or all of them, when
        hidden folders are now treated differently)."""
        new_roots = self.root_paths()
        for path in old_roots - set(new_roots):
            self.drop(path)
        hidden_changed = self._store.settings.include_hidden != old_hidden
        self.scan_and_watch(path for path in new_roots if hidden_changed or path not in old_roots)

    async def pick_root(self, zip_file: bool) -> None:
        parent = self._feedback.parent
        if zip_file:
            dialog = QFileDialog(parent, "Add a zip archive of skills", str(Path.home()),
                                 "Zip archives of skills (*.zip *.skill)")
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        else:
            dialog = QFileDialog(parent, "Add a folder of skills", str(Path.home()))
            dialog.setFileMode(QFileDialog.FileMode.Directory)
            dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        if await asyncqt.ask(dialog) == QDialog.DialogCode.Accepted and dialog.selectedFiles():
            self.add_root(Path(dialog.selectedFiles()[0]))

    # -- changes on disk -----------------------------------------------------------------------------

    def _on_watcher_folder_changed(self, folder: Path) -> None:
        self.folder_changed(folder)

    def folder_changed(self, folder: Path) -> None:
        """Skill folders appeared in or vanished from a root or a folder below it: update the
        library in place, and watch any new folder that is not a skill. A large new tree (a
        pack of skills copied in) is left to a rescan of its root, in the background."""
        state = self._library.deepest_root(folder, writable=True)
        if state is None:
            return
        root = state.root
        if not folder.is_dir():
            self._forget_folder(folder)
            return
        try:
            entries = [entry for entry in folder.iterdir() if entry.is_dir()
                       and walks_into(entry.name, root.include_hidden)]
            present = {entry for entry in entries if skill_file_in(os.listdir(entry)) is not None}
        except OSError:
            return
        known = {s.directory for s in state.skills if s.directory.parent == folder}
        for directory in known - present:
            if not self._is_open(directory):
                self._library.remove_skill(directory)
        for watched in self._watcher.folders_below(folder):
            if watched.parent == folder and not watched.is_dir():
                self._forget_folder(watched)
        new_skills = sorted(present - known)
        new_folders: list[Path] = []
        for entry in sorted(set(entries) - present):
            if self._watcher.watches_folder(entry):
                continue
            stamps: list[Stamp] = []
            new_skills.extend(directory for directory, _ in discover(entry, root.include_hidden,
                                                                     stamps))
            new_folders.extend(Path(stamp[0]) for stamp in stamps)
            if len(new_skills) > LIVE_SKILLS:
                self.scan_and_watch([root.path])
                return
        self._watcher.watch_folders(new_folders)
        for directory in new_skills:
            self._library.update_skill(summary_of(directory, root.path, state.target))

    def _forget_folder(self, folder: Path) -> None:
        """A folder below a root is gone: so are the skills in it (but those open in a tab)."""
        for summary in self._library.skills_below(folder):
            if not self._is_open(summary.directory):
                self._library.remove_skill(summary.directory)
        self._watcher.unwatch_folders(self._watcher.folders_below(folder))

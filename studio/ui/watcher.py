"""Noticing when another program changes an open file or a skill root.

QFileSystemWatcher drops a path when the file is replaced (as atomic saves do), so a path is
added again after every change. Our own saves are told apart by content: a change that leaves
the file holding exactly what the tab last read or wrote is not reported.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

SETTLE_MS = 150
# Folders handed to QFileSystemWatcher per turn of the event loop: after a scan of 10,000 skills,
# adding every folder at once took 35 ms of the window's thread.
ADD_CHUNK = 300


class FileWatcher(QObject):
    """Watches files and folders, reporting each change once it has settled.

    Signals:
        file_changed: (Path) a watched file changed, or was removed.
        folder_changed: (Path) the entries of a watched folder changed.
    """

    file_changed = Signal(Path)
    folder_changed = Signal(Path)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._files: set[Path] = set()
        # As strings: a library's thousands of folders as `Path`s cost the window's thread.
        self._folders: set[str] = set()
        self._pending: set[Path] = set()
        self._adding: dict[str, None] = {}
        self._adder = QTimer(self)
        self._adder.setSingleShot(True)
        self._adder.setInterval(0)
        self._adder.timeout.connect(self._on_adder_timeout)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._watcher.fileChanged.connect(self._on_watcher_file_changed)
        self._watcher.directoryChanged.connect(self._on_watcher_directory_changed)

    def watch_file(self, path: Path) -> None:
        self._files.add(path)
        if path.exists() and str(path) not in self._watcher.files():
            self._watcher.addPath(str(path))

    def unwatch_file(self, path: Path) -> None:
        self._files.discard(path)
        if str(path) in self._watcher.files():
            self._watcher.removePath(str(path))

    def watch_folder(self, path: Path) -> None:
        self.watch_folders([path])

    def watch_folders(self, paths: list[Path]) -> None:
        """Watch many folders at once (a library may have thousands)."""
        self._watch_names([str(path) for path in paths])

    def watch_folders_below(self, root: Path, names: list[str]) -> None:
        """Watch `root` and the folders `names` below it (as the scan gives them: a scan of a
        public collection names thousands), and no other folder below it. On strings
        throughout: making and hashing a `Path` for each took over 100 ms of the window's
        thread when a scan of 10,000 skills ended."""
        top = str(root)
        keep = set(names)
        keep.add(top)
        below = top.rstrip(os.sep) + os.sep
        self._unwatch_names([name for name in self._folders
                             if name not in keep and (name == top or name.startswith(below))])
        self._watch_names([top, *names])

    def _watch_names(self, names: list[str]) -> None:
        self._folders.update(names)
        watched = set(self._watcher.directories())
        # A folder deleted and made again drops out of QFileSystemWatcher: add it again. One gone
        # is simply refused by addPaths; asking first would stat thousands of folders on the
        # window's thread after every scan.
        adding = self._adding
        for name in names:
            if name not in watched:
                adding[name] = None
        self._add_some()

    def unwatch_folders(self, paths: list[Path]) -> None:
        self._unwatch_names([str(path) for path in paths])

    def _unwatch_names(self, names: list[str]) -> None:
        gone = [name for name in names if name in self._folders]
        self._folders.difference_update(gone)
        for name in gone:
            self._adding.pop(name, None)
        watched = set(self._watcher.directories())
        removing = [name for name in gone if name in watched]
        if removing:
            self._watcher.removePaths(removing)

    def folders_below(self, path: Path) -> list[Path]:
        """The watched folders at or below `path`."""
        top = str(path)
        below = top.rstrip(os.sep) + os.sep
        return [Path(name) for name in self._folders if name == top or name.startswith(below)]

    def watches_folder(self, path: Path) -> bool:
        return str(path) in self._folders

    def rearm(self, path: Path) -> None:
        """Watch a file again after it was replaced (e.g. by our own atomic save)."""
        if path in self._files:
            if str(path) in self._watcher.files():
                self._watcher.removePath(str(path))
            if path.exists():
                self._watcher.addPath(str(path))

    def _add_some(self) -> None:
        """Hand the next `ADD_CHUNK` folders waiting to QFileSystemWatcher, the rest later."""
        chunk = list(itertools.islice(self._adding, ADD_CHUNK))
        for name in chunk:
            del self._adding[name]
        if chunk:
            self._watcher.addPaths(chunk)
        if self._adding:
            self._adder.start()

    def _on_adder_timeout(self) -> None:
        self._add_some()

    def _on_watcher_file_changed(self, name: str) -> None:
        self._pending.add(Path(name))
        self._timer.start()

    def _on_watcher_directory_changed(self, name: str) -> None:
        self._pending.add(Path(name))
        self._timer.start()

    def stop(self) -> None:
        """Watch nothing more and report nothing pending: a closed window must not react to a
        change seen just before it closed (its handlers would open questions with no window)."""
        self._adder.stop()
        self._timer.stop()
        self._pending.clear()
        self._adding.clear()
        self._files.clear()
        self._folders.clear()
        for names in (self._watcher.files(), self._watcher.directories()):
            if names:
                self._watcher.removePaths(names)

    def _on_timer_timeout(self) -> None:
        pending, self._pending = self._pending, set()
        for path in sorted(pending):
            if path in self._files:
                self.rearm(path)
                self.file_changed.emit(path)
            elif str(path) in self._folders:
                self.folder_changed.emit(path)

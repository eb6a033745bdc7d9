"""File ▸ Standard Locations (and the library toolbar's Add ▸ Standard Locations): the folders the
clients the studio knows read skills from, for this project and this user, each one click from
being a root; those already in the library are shown, greyed, and a folder not yet made says so."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMenu, QWidget

from studio.skills.library import Library
from studio.skills.scan import standard_locations
from studio.ui.library.roots import LibraryRoots


class LocationsMenu(QMenu):
    """Filled each time it opens, from the working folder and the home as they are then."""

    def __init__(self, library: Library, roots: LibraryRoots, parent: QWidget) -> None:
        super().__init__("Standard &Locations", parent)
        self._library = library
        self._roots = roots
        self.aboutToShow.connect(self._on_about_to_show)

    def _on_about_to_show(self) -> None:
        self.clear()
        for location in standard_locations(Path.cwd(), Path.home()):
            shown = str(location).replace(str(Path.home()), "~", 1)
            if self._library.root(location) is not None:
                self.addAction(f"{shown} (in the library)").setEnabled(False)
                continue
            suffix = "" if location.is_dir() else " (create it)"
            action = self.addAction(shown + suffix)
            action.triggered.connect(
                lambda _checked=False, where=location: self._roots.add_location(where))

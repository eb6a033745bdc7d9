"""The Problems panel kept in step with the core `Library`: the current tab's problems, or the
whole library's (with the open editors' live problems in place of the saved ones)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from studio.skills.collection import Library, LibraryEvent
from studio.ui.controllers.editors import EditorTabs
from studio.ui.widgets.problems_panel import ProblemsPanel


class ProblemsController(QObject):
    """Fills the Problems panel from the library.

    The whole library's list is rebuilt once per turn of the event loop however many changes
    arrive in it (a scan reports skills in batches; marking duplicate names changes many)."""

    def __init__(self, library: Library, editors: EditorTabs, panel: ProblemsPanel,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._editors = editors
        self._panel = panel
        self._library_pending = QTimer(self)
        self._library_pending.setSingleShot(True)
        self._library_pending.setInterval(0)
        self._library_pending.timeout.connect(self.refresh)
        library.connect(self._on_library_event)
        panel.scope_changed.connect(self._on_panel_scope_changed)
        editors.tabs.currentChanged.connect(self._on_tabs_current_changed)

    def refresh(self) -> None:
        self._library_pending.stop()
        panel = self._panel
        if panel.library_scope:
            panel.set_problems(self._library.problems(), "No problems in the library.")
            return
        tab = self._editors.current_skill_tab()
        if tab is None:
            panel.set_problems([], "Open a skill to see its problems.")
            return
        panel.set_problems(self._library.problems_of(tab.directory),
                           f"No problems in {tab.title}.")

    def _on_library_event(self, _event: LibraryEvent) -> None:
        if self._panel.library_scope:
            self._library_pending.start()
        else:
            self.refresh()

    def _on_panel_scope_changed(self, _scope: int) -> None:
        self.refresh()

    def _on_tabs_current_changed(self, _index: int) -> None:
        if not self._panel.library_scope:
            self.refresh()

"""The studio's main window: the library on the left, editor tabs in the centre, problems below.

The window owns the pieces and wires them; the work on skills (open, save, rename, delete, fix,
reload) lives in `SkillActions` (see `studio.ui.actions`), which the window's menus call.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QFont, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QWidget,
)

from studio.editing.autosave import AutosaveStore
from studio.settings import SettingsStore
from studio.skills.library import SkillRoot, standard_locations
from studio.ui.actions import SkillActions
from studio.ui.chat.dock import ChatDock
from studio.ui.library_loader import LibraryLoader
from studio.ui.models.library_model import LibraryModel
from studio.ui.models.problems_model import Problem
from studio.ui.tasks import TaskSet
from studio.ui.theme import editor_font
from studio.ui.watcher import FileWatcher
from studio.ui.widgets.editor_tab import SkillEditorTab
from studio.ui.widgets.file_tab import FileTab
from studio.ui.widgets.library_panel import LibraryPanel
from studio.ui.widgets.problems_panel import ProblemsPanel

AUTOSAVE_INTERVAL_MS = 4000
# A root with more rows than this stays collapsed after its scan: laying out that many rows at
# once would stall the window; the user opens it when they want it.
EXPAND_LIMIT = 2000
DIRTY_MARK = " ●"

Tab = SkillEditorTab | FileTab


WELCOME = """
<div style='text-align:center'>
<p style='font-size:15pt'><b>Skill Studio</b></p>
<p>Double-click a skill in the library to open it.</p>
<p><b>Ctrl+N</b> new skill &nbsp;·&nbsp; <b>Ctrl+O</b> add a folder of skills
&nbsp;·&nbsp; <b>Ctrl+F</b> filter the library</p>
<p><b>Ctrl+S</b> save &nbsp;·&nbsp; <b>Ctrl+.</b> apply a fix &nbsp;·&nbsp; <b>F2</b> rename</p>
</div>
"""


class MainWindow(QMainWindow):
    """The one window of the studio.

    Signals:
        closed: the window closed (after every unsaved change was saved or discarded).
    """

    closed = Signal()

    def __init__(self, store: SettingsStore, *, autosave: AutosaveStore | None = None,
                 cache_path: Path | None = None, session_roots: list[Path] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.settings = store.settings
        self.autosave = autosave if autosave is not None else AutosaveStore()
        self.session_roots = list(session_roots or [])
        self.tasks = TaskSet()
        self.code_font = editor_font(self.settings.editor_font)
        self._close_allowed = False
        self._autosaved: dict[Path, str] = {}
        self._expand_when_scanned: set[Path] = set()

        self.setWindowTitle("Skill Studio")
        self.setObjectName("mainWindow")
        self.setDockNestingEnabled(False)
        self.library_model = LibraryModel(self)
        self.loader = LibraryLoader(self.library_model, cache_path, self)
        self.watcher = FileWatcher(self)
        self.library_panel = LibraryPanel(self.library_model)
        self.problems_panel = ProblemsPanel()

        self.tabs = QTabWidget()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.setElideMode(Qt.TextElideMode.ElideMiddle)
        self.welcome = QLabel(WELCOME)
        self.welcome.setObjectName("welcome")
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.welcome)
        self.centre.addWidget(self.tabs)
        self.setCentralWidget(self.centre)

        self.library_dock = self._dock("Library", "libraryDock", self.library_panel,
                                       Qt.DockWidgetArea.LeftDockWidgetArea)
        self.problems_dock = self._dock("Problems", "problemsDock", self.problems_panel,
                                        Qt.DockWidgetArea.BottomDockWidgetArea)

        self.scan_label = QLabel()
        self.scan_progress = QProgressBar()
        self.scan_progress.setRange(0, 0)
        self.scan_progress.setMaximumWidth(120)
        self.scan_progress.setMaximumHeight(14)
        self.scan_progress.hide()
        self.statusBar().addPermanentWidget(self.scan_label)
        self.statusBar().addPermanentWidget(self.scan_progress)

        self.actions_ = SkillActions(self)
        self._make_actions()
        self.chat = ChatDock(self)
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setInterval(AUTOSAVE_INTERVAL_MS)
        self._autosave_timer.timeout.connect(self._on_autosave_timer_timeout)
        self._autosave_timer.start()

        self.tabs.tabCloseRequested.connect(self._on_tabs_tab_close_requested)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.library_panel.skill_activated.connect(self._on_library_panel_skill_activated)
        self.library_panel.file_activated.connect(self._on_library_panel_file_activated)
        self.problems_panel.problem_activated.connect(self._on_problems_panel_problem_activated)
        self.problems_panel.fix_requested.connect(self._on_problems_panel_fix_requested)
        self.problems_panel.scope_changed.connect(self._on_problems_panel_scope_changed)
        self.loader.progressed.connect(self._on_loader_progressed)
        self.loader.scan_finished.connect(self._on_loader_scan_finished)
        self.loader.root_scanned.connect(self._on_loader_root_scanned)
        self.watcher.file_changed.connect(self._on_watcher_file_changed)
        self.watcher.folder_changed.connect(self._on_watcher_folder_changed)

        self.resize(1280, 760)
        self.resizeDocks([self.library_dock], [290], Qt.Orientation.Horizontal)
        self.resizeDocks([self.problems_dock], [150], Qt.Orientation.Vertical)
        self._restore_geometry()
        self._refresh_problems()

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    # -- actions and menus ---------------------------------------------------------------------------

    def _action(self, text: str, slot: object,
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _make_actions(self) -> None:
        acts = self.actions_
        key = QKeySequence.StandardKey
        self.new_action = self._action("&New Skill…", acts.new_skill_clicked, "Ctrl+N",
                                       "Create a skill from the template")
        self.add_root_action = self._action("&Add Folder of Skills…", acts.add_folder_clicked,
                                            "Ctrl+O", "Add a folder to the library")
        self.add_zip_action = self._action("Add &Zip of Skills…", acts.add_zip_clicked, None,
                                           "Add a zip archive (read-only) to the library")
        self.remove_root_action = self._action("&Remove Root", acts.remove_root_clicked, None,
                                               "Remove the selected root from the library")
        self.save_action = self._action("&Save", acts.save_clicked, key.Save,
                                        "Save the current tab")
        self.close_tab_action = self._action("&Close Tab", acts.close_tab_clicked, "Ctrl+W")
        self.settings_action = self._action("Se&ttings…", acts.settings_clicked,
                                            key.Preferences)
        self.quit_action = self._action("&Quit", self.close, "Ctrl+Q")
        self.undo_action = self._action("&Undo", acts.undo_clicked)
        self.redo_action = self._action("&Redo", acts.redo_clicked)
        self.filter_action = self._action("&Filter Library", self.library_panel.focus_filter,
                                          "Ctrl+F", "Filter the library by name or description")
        self.fix_action = self._action("Apply &Fix", acts.fix_clicked, "Ctrl+.",
                                       "Apply the fix offered for a problem")
        self.rename_action = self._action("&Rename Skill…", acts.rename_clicked, "F2",
                                          "Rename the skill: its folder and its name together")
        self.delete_action = self._action("&Delete Skill…", acts.delete_clicked, None,
                                          "Move the skill's folder to the trash")
        self.validate_action = self._action("Show Problems of the &Whole Library",
                                            self.show_library_problems, "Ctrl+Shift+M")
        self.rescan_action = self._action("Rescan &Library", acts.rescan_clicked, "F5")

        self.locations_menu = QMenu("Standard &Locations", self)
        self.locations_menu.aboutToShow.connect(self._on_locations_menu_about_to_show)

        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        for action in (self.new_action, self.add_root_action, self.add_zip_action):
            file_menu.addAction(action)
        file_menu.addMenu(self.locations_menu)
        file_menu.addAction(self.remove_root_action)
        file_menu.addSeparator()
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.close_tab_action)
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = menu.addMenu("&Edit")
        for action in (self.undo_action, self.redo_action):
            edit_menu.addAction(action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.filter_action)
        edit_menu.addAction(self.fix_action)
        skill_menu = menu.addMenu("&Skill")
        for action in (self.rename_action, self.delete_action):
            skill_menu.addAction(action)
        skill_menu.addSeparator()
        skill_menu.addAction(self.validate_action)
        skill_menu.addAction(self.rescan_action)
        view_menu = menu.addMenu("&View")
        view_menu.addAction(self.library_dock.toggleViewAction())
        view_menu.addAction(self.problems_dock.toggleViewAction())

        toolbar = self.library_panel.toolbar
        add_button = QToolButton()
        add_button.setText("Add")
        add_button.setToolTip("Add a folder or zip of skills, or a standard location")
        add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        add_menu = QMenu(add_button)
        add_menu.addAction(self.add_root_action)
        add_menu.addAction(self.add_zip_action)
        add_menu.addMenu(self.locations_menu)
        add_button.setMenu(add_menu)
        toolbar.addAction(self.new_action)
        toolbar.addWidget(add_button)
        toolbar.addAction(self.remove_root_action)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.new_action.setIconText("New")
        self.remove_root_action.setIconText("Remove")
        toolbar.setIconSize(QSize(16, 16))

    def _on_locations_menu_about_to_show(self) -> None:
        self.locations_menu.clear()
        known = {node.scan.root.path for node in self.library_model.roots()}
        for location in standard_locations(Path.cwd(), Path.home()):
            shown = str(location).replace(str(Path.home()), "~", 1)
            if location in known:
                action = self.locations_menu.addAction(f"{shown} (in the library)")
                action.setEnabled(False)
                continue
            suffix = "" if location.is_dir() else " (create it)"
            action = self.locations_menu.addAction(shown + suffix)
            action.triggered.connect(
                lambda _checked=False, where=location: self.actions_.add_location(where))

    # -- the library ----------------------------------------------------------------------------------

    def root_paths(self) -> list[Path]:
        paths: list[Path] = []
        for text in [*self.settings.roots, *map(str, self.session_roots)]:
            path = Path(text).expanduser()
            if path not in paths:
                paths.append(path)
        return paths

    def start(self) -> None:
        """Scan every root (settings and command line); the window is already usable."""
        roots = [SkillRoot(path, self.settings.include_hidden) for path in self.root_paths()]
        if roots:
            self.scan(roots)
        for root in roots:
            if not root.is_zip:
                self.watcher.watch_folder(root.path)
        self._update_library_hint()
        if self.store.problems:
            self.statusBar().showMessage(self.store.problems[0], 15000)

    def scan(self, roots: list[SkillRoot]) -> None:
        """Scan roots; new roots open up when their scan is done.

        A root stays collapsed while it fills: a tree view lays out every visible child on each
        insertion, which for thousands of skills would stall the window again and again.
        """
        known = {node.scan.root.path for node in self.library_model.roots()}
        self._expand_when_scanned.update(root.path for root in roots if root.path not in known)
        self.loader.scan(roots)
        self._show_scanning()

    def _show_scanning(self) -> None:
        self.scan_label.setText("Scanning skills…")
        self.scan_progress.show()

    def _on_loader_progressed(self, count: int) -> None:
        self.scan_label.setText(f"Scanning skills… {count:,} found")

    def _on_loader_scan_finished(self) -> None:
        for path in sorted(self._expand_when_scanned):
            node = self.library_model.root_node(path)
            if node is not None and len(node.children) <= EXPAND_LIMIT:
                self.library_panel.expand_root(path)
        self._expand_when_scanned.clear()
        self.scan_progress.hide()
        count = self.library_model.skill_count
        errors = [node.scan.error for node in self.library_model.roots() if node.scan.error]
        self.scan_label.setText(f"{count:,} skill{'s' * (count != 1)}")
        if errors:
            self.statusBar().showMessage(errors[0], 15000)
        self._update_library_hint()
        if self.problems_panel.library_scope:
            self._refresh_problems()

    def _update_library_hint(self) -> None:
        if not self.library_model.roots():
            self.library_panel.count_label.setText(
                "No skill folders yet: add one with Add ▸ (Ctrl+O).")

    def show_library_problems(self) -> None:
        self.problems_dock.show()
        self.problems_panel.scope.setCurrentIndex(1)

    # -- tabs -----------------------------------------------------------------------------------------

    def editor_tabs(self) -> list[Tab]:
        found: list[Tab] = []
        for index in range(self.tabs.count()):
            widget = self.tabs.widget(index)
            if isinstance(widget, SkillEditorTab | FileTab):
                found.append(widget)
        return found

    def skill_tab(self, directory: Path) -> SkillEditorTab | None:
        for tab in self.editor_tabs():
            if isinstance(tab, SkillEditorTab) and tab.directory == directory:
                return tab
        return None

    def tab_for_path(self, path: Path) -> Tab | None:
        for tab in self.editor_tabs():
            if tab.path == path:
                return tab
        return None

    def current_tab(self) -> Tab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, SkillEditorTab | FileTab) else None

    def current_skill_tab(self) -> SkillEditorTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, SkillEditorTab) else None

    def add_tab(self, tab: Tab, tooltip: str) -> None:
        index = self.tabs.addTab(tab, tab.title)
        self.tabs.setTabToolTip(index, tooltip)
        self.tabs.setCurrentIndex(index)
        self.centre.setCurrentWidget(self.tabs)
        tab.dirty_changed.connect(lambda _dirty, which=tab: self.update_tab_title(which))
        if isinstance(tab, SkillEditorTab):
            tab.diagnostics_changed.connect(lambda which=tab: self._on_tab_diagnostics_changed(which))
            tab.file_open_requested.connect(self._on_tab_file_open_requested)
        self.watcher.watch_file(tab.path)
        self._refresh_problems()

    def remove_tab(self, tab: Tab) -> None:
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.removeTab(index)
        self.watcher.unwatch_file(tab.path)
        self.autosave.discard(tab.path)
        self._autosaved.pop(tab.path, None)
        tab.deleteLater()
        if self.tabs.count() == 0:
            self.centre.setCurrentWidget(self.welcome)
        self._refresh_problems()

    def update_tab_title(self, tab: Tab) -> None:
        index = self.tabs.indexOf(tab)
        if index < 0:
            return
        self.tabs.setTabText(index, tab.title + (DIRTY_MARK if tab.dirty else ""))
        self.tabs.setTabToolTip(index, str(tab.path) + ("\nUnsaved changes" if tab.dirty else ""))

    def set_editor_font(self, font: QFont) -> None:
        self.code_font = font
        for tab in self.editor_tabs():
            tab.set_editor_font(font)

    def _on_tabs_tab_close_requested(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if isinstance(widget, SkillEditorTab | FileTab):
            self.tasks.spawn(self.actions_.close_tab(widget))

    def _on_tabs_current_changed(self, _index: int) -> None:
        tab = self.current_tab()
        if tab is not None:
            tab.setFocus()
        if not self.problems_panel.library_scope:
            self._refresh_problems()

    def _on_tab_diagnostics_changed(self, tab: SkillEditorTab) -> None:
        if tab is self.current_tab() or self.problems_panel.library_scope:
            self._refresh_problems()

    def _on_tab_file_open_requested(self, path: Path, line: int) -> None:
        self.actions_.open_file(path, line)

    def _on_library_panel_skill_activated(self, summary: object) -> None:
        self.actions_.open_summary(summary)

    def _on_library_panel_file_activated(self, summary: object, path: Path) -> None:
        self.actions_.open_library_file(summary, path)

    # -- problems -------------------------------------------------------------------------------------

    def _refresh_problems(self) -> None:
        panel = self.problems_panel
        if panel.library_scope:
            problems: list[Problem] = []
            for summary in self.library_model.summaries():
                tab = self.skill_tab(summary.directory)
                diagnostics = tab.diagnostics if tab is not None else summary.diagnostics
                name = tab.title if tab is not None else summary.display_name
                problems.extend(Problem(summary.directory, name, d) for d in diagnostics)
            panel.set_problems(problems, "No problems in the library.")
            return
        tab = self.current_skill_tab()
        if tab is None:
            panel.set_problems([], "Open a skill to see its problems.")
            return
        panel.set_problems([Problem(tab.directory, tab.title, d) for d in tab.diagnostics],
                           f"No problems in {tab.title}.")
        self.update_tab_title(tab)

    def _on_problems_panel_problem_activated(self, problem: Problem) -> None:
        self.actions_.go_to_problem(problem)

    def _on_problems_panel_fix_requested(self, problem: Problem) -> None:
        self.tasks.spawn(self.actions_.apply_fix(problem))

    def _on_problems_panel_scope_changed(self, _scope: int) -> None:
        self._refresh_problems()

    # -- files changing on disk, autosave ------------------------------------------------------------

    def _on_watcher_file_changed(self, path: Path) -> None:
        self.tasks.spawn(self.actions_.file_changed_on_disk(path))

    def _on_watcher_folder_changed(self, path: Path) -> None:
        self.actions_.library_folder_changed(path)

    def _on_loader_root_scanned(self, root: Path, folders: list[Path]) -> None:
        node = self.library_model.root_node(root)
        if node is not None and not node.scan.root.is_zip:
            keep = {root, *folders}
            self.watcher.unwatch_folders([f for f in self.watcher.folders_below(root) if f not in keep])
            self.watcher.watch_folders([root, *folders])

    def _on_autosave_timer_timeout(self) -> None:
        self.autosave_now()

    def autosave_now(self) -> None:
        """Keep the text of every dirty tab beside the settings; forget it for clean tabs."""
        for tab in self.editor_tabs():
            path = tab.path
            if not tab.dirty:
                if self._autosaved.pop(path, None) is not None:
                    self.autosave.discard(path)
                continue
            text = tab.text()
            if self._autosaved.get(path) == text:
                continue
            try:
                self.autosave.write(path, text, "skill" if isinstance(tab, SkillEditorTab)
                                    else "file")
            except OSError as exc:
                self.statusBar().showMessage(
                    f"Could not keep a backup of unsaved changes to {path.name}: {exc}", 10000)
                continue
            self._autosaved[path] = text

    def forget_autosave(self, path: Path) -> None:
        self._autosaved.pop(path, None)
        self.autosave.discard(path)

    # -- session --------------------------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        window = self.settings.window
        if not (self.settings.remember_window and window.geometry):
            self._fit_to_screen()
        if not self.settings.remember_window:
            return
        if window.geometry:
            self.restoreGeometry(QByteArray.fromBase64(window.geometry.encode("ascii")))
        if window.state:
            self.restoreState(QByteArray.fromBase64(window.state.encode("ascii")))

    def _fit_to_screen(self) -> None:
        """First start: a generous size that fits the screen (1366x768 included), centred."""
        screen = self.screen().availableGeometry()
        width, height = min(1440, screen.width()), min(900, screen.height())
        self.resize(width, height)
        self.move(screen.x() + (screen.width() - width) // 2,
                  screen.y() + (screen.height() - height) // 2)

    def remember_session(self) -> None:
        settings = self.settings
        if settings.remember_window:
            settings.window.geometry = bytes(self.saveGeometry().toBase64().data()).decode("ascii")
            settings.window.state = bytes(self.saveState().toBase64().data()).decode("ascii")
        if settings.remember_open_tabs:
            settings.open_tabs = [str(tab.directory) for tab in self.editor_tabs()
                                  if isinstance(tab, SkillEditorTab)]
        self.store.save()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            for tab in self.editor_tabs():
                tab.refresh_colors()

    def close_without_asking(self) -> None:
        """Close now, keeping unsaved edits only as autosaves (offered back at the next start)."""
        self.autosave_now()
        self._close_allowed = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._close_allowed:
            self.loader.stop()
            self._autosave_timer.stop()
            self.remember_session()
            event.accept()
            self.closed.emit()
            return
        event.ignore()
        self.tasks.spawn(self._close_when_confirmed())

    async def _close_when_confirmed(self) -> None:
        if await self.actions_.confirm_close(self.editor_tabs()):
            for tab in self.editor_tabs():
                self.forget_autosave(tab.path)
            self._close_allowed = True
            self.close()

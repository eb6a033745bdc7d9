"""The studio's main window: the library on the left, editor tabs in the centre, problems below.

The window builds the pieces and wires them; the work is done by controllers with one job each
(in the feature packages beside it): the editor tabs, autosaves, the library's roots, the operations on
skills and the problems list, over one core `Library`. Nothing imports this module but the app.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
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

from studio.editing import RecoveryStore
from studio.paths import data_dir
from studio.settings import Settings, SettingsStore
from studio.skills.library import Library, Problem
from studio.skills.search import INDEX_FILE
from studio.ui import asyncqt, collector
from studio.ui.chat.backend import settings_embedder
from studio.ui.chat.dock import ChatDock
from studio.ui.clients import ClientsViews
from studio.ui.edit_undo import EditUndo
from studio.ui.editor.autosaving import Autosaver
from studio.ui.editor.disk_changes import DiskChanges
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.restore import Recovery
from studio.ui.editor.tabs import EditorTabs
from studio.ui.evals.controller import HISTORY_FILE, EvalsTabs
from studio.ui.library.installs import UrlInstalls
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.library.library_search import LibrarySearch
from studio.ui.library.loader import LibraryLoader
from studio.ui.library.locations_menu import LocationsMenu
from studio.ui.library.lock_sync import LockSyncs
from studio.ui.library.roots import LibraryRoots
from studio.ui.library.served_root import add_served_root
from studio.ui.library.skill_ops import SkillOperations
from studio.ui.menus import make_action, make_menus
from studio.ui.problems.fix_all import FixAll
from studio.ui.problems.problems_controller import ProblemsController
from studio.ui.problems.problems_panel import ProblemsPanel
from studio.ui.problems.security_scans import SecurityScans
from studio.ui.quickopen import QuickOpen
from studio.ui.settings.settings_dialog import SettingsDialog
from studio.ui.share import McpServing, SkillExports
from studio.ui.status_messages import Feedback
from studio.ui.tasks import TaskSet
from studio.ui.theme import editor_font
from studio.ui.watcher import FileWatcher
from studio.ui.window_geometry import WindowGeometry

WELCOME = """
<div style='text-align:center'>
<p style='font-size:15pt'><b>Skill Studio</b></p>
<p>Double-click a skill in the library to open it.</p>
<p><b>Ctrl+N</b> new skill &nbsp;·&nbsp; <b>Ctrl+O</b> add a folder of skills
&nbsp;·&nbsp; <b>Ctrl+F</b> filter the library</p>
<p><b>Ctrl+S</b> save &nbsp;·&nbsp; <b>Ctrl+.</b> apply a fix &nbsp;·&nbsp; <b>F2</b> rename</p>
{chat}</div>
"""
# Said on the welcome screen while the chat's dock is closed (it starts so on a narrow screen).
CHAT_HIDDEN = ("<p>The chat is closed to leave the editor room: <b>View ▸ Chat</b> opens it, "
               "<b>Ctrl+Shift+T</b> tries the open skill in it.</p>")


class MainWindow(QMainWindow):
    """The one window of the studio.

    Attributes:
        library: the core state of the library, which every view reads.
        editors, autosaver, recovery, disk_changes, roots, skill_ops, problems: the controllers.
        geometry_keeper: restores and remembers the window's size and its panels' layout.

    Signals:
        closed: the window closed (after every unsaved change was saved or discarded).
    """

    closed = Signal()

    def __init__(self, store: SettingsStore, *, recovery: RecoveryStore | None = None,
                 cache_path: Path | None = None, session_roots: list[Path] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.tasks = TaskSet()
        self._close_allowed = False

        self.setWindowTitle("Skill Studio")
        self.setObjectName("mainWindow")
        self.setDockNestingEnabled(False)
        self.library = Library()
        self.library_model = LibraryModel(self.library, self)
        self.loader = LibraryLoader(self.library, cache_path, self)
        self.watcher = FileWatcher(self)
        self.library_panel = LibraryPanel(self.library_model)
        self.library_panel.flat_action.setChecked(self.settings.library_flat)
        self.problems_panel = ProblemsPanel()

        self.tabs = QTabWidget()
        self.welcome = QLabel(WELCOME.format(chat=""))
        self.welcome.setObjectName("welcome")
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # Its lines wrap: unwrapped, the longest set the least width of the whole window.
        self.welcome.setWordWrap(True)
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

        feedback = self._feedback = Feedback(self, self.statusBar())
        self.editors: EditorTabs
        self.autosaver = Autosaver(recovery if recovery is not None else RecoveryStore(),
                                   lambda: self.editors.editor_tabs(), feedback, self)
        self.editors = EditorTabs(self.tabs, self.centre, self.welcome, self.library,
                                  self.watcher, self.autosaver, feedback, self.tasks,
                                  editor_font(self.settings.editor_font), self)
        self.recovery = Recovery(self.editors, self.autosaver, feedback, self)
        self.disk_changes = DiskChanges(self.editors, self.watcher, self.autosaver, feedback,
                                        self.tasks, self)
        self.roots = LibraryRoots(self.library, self.library_model, self.loader, self.watcher,
                                  store, self.library_panel, feedback,
                                  lambda directory: self.editors.skill_tab(directory) is not None,
                                  session_roots or [], self)
        self.skill_ops = SkillOperations(self.library, self.editors, self.library_panel, feedback,
                                         self.problems_panel.fixable_problem)
        self.security_scans = SecurityScans(self.library, self.tasks, self.watcher, self)
        self.problems = ProblemsController(self.library, self.editors, self.problems_panel,
                                           self.security_scans, self)
        self.fix_all = FixAll(self.library, self.editors, feedback, self)
        self.installs = UrlInstalls(self.library, self.roots, feedback, self)
        self.lock_syncs = LockSyncs(self.library_panel, self.roots, feedback, self.tasks, self)
        index_file = cache_path.parent / INDEX_FILE if cache_path is not None else None
        self.search = LibrarySearch(self.library, self.library_panel, self.tasks, index_file, self,
                                    settings_embedder(lambda: self.settings.backend))
        self._make_actions()
        self.exports = SkillExports(feedback, self.tasks, self.skill_ops.target_directory, self)
        self.menus.skill.insertMenu(self.validate_action, self.exports.menu)
        self.menus.skill.insertSeparator(self.validate_action)
        self.mcp_serving = McpServing(
            feedback, self.tasks, lambda: [state.root.path for state in self.library.roots()], self)
        self.menus.tools.addAction(self.mcp_serving.action)
        self.chat = ChatDock(self, store, self.library, self.editors, self.menus,
                             lambda tab: self.tasks.spawn(self.editors.close_tab(tab)))
        pane = self.chat.pane
        # The model's search_skills ranks as the library's search does, on the same index.
        pane.search_index, pane.search_embedder = index_file, lambda: self.search.embedder_source()
        self.evals = EvalsTabs(self.editors, pane.model_bar, pane.sessions, pane.last_prompt,
                               self.library, data_dir() / HISTORY_FILE, self.tasks, self.autosaver,
                               lambda: self.settings.evals, self)
        self.menus.tools.addAction(self.evals.conflicts_action)
        self.clients = ClientsViews(self.tasks, self.editors, self.menus.tools, self)
        self.quick_open = QuickOpen(self, self.library, self.editors.open_summary, self.menus.view,
                                    feedback.status)
        self.editors.model_names = pane.model_bar.backend.server.model_names
        self.chat.dock.visibilityChanged.connect(self._on_chat_dock_visibility_changed)

        self.editors.skill_opened.connect(self.library_panel.select_skill)
        self.library_panel.skill_activated.connect(self.editors.open_summary)
        self.library_panel.file_activated.connect(self.editors.open_library_file)
        self.library_panel.target_requested.connect(self.roots.set_target)
        self.library_panel.update_requested.connect(self._on_library_panel_update_requested)
        self.library_panel.remove_requested.connect(self._on_library_panel_remove_requested)
        self.problems_panel.problem_activated.connect(self.editors.go_to_problem)
        self.problems_panel.fix_requested.connect(self._on_problems_panel_fix_requested)
        self.problems_panel.fix_all_requested.connect(self._on_problems_panel_fix_all_requested)
        self.library_model.skills_changed.connect(self._on_library_model_skills_changed)
        self.loader.scan_started.connect(self._on_loader_scan_started)
        self.loader.progressed.connect(self._on_loader_progressed)
        self.loader.scan_finished.connect(self._on_loader_scan_finished)
        self.closed.connect(self.chat.pane.stop)
        self.closed.connect(self.search.close)
        self.closed.connect(self.installs.close)
        self.closed.connect(self.lock_syncs.close)
        self.closed.connect(self.clients.close)
        self.closed.connect(self.mcp_serving.close)
        self.closed.connect(self.exports.close)
        self.closed.connect(self.security_scans.close)

        self.resize(1280, 760)
        self.resizeDocks([self.library_dock], [290], Qt.Orientation.Horizontal)
        self.resizeDocks([self.problems_dock], [180], Qt.Orientation.Vertical)
        self.geometry_keeper = WindowGeometry(
            self, [self.library_dock, self.problems_dock, self.chat.dock])
        self.geometry_keeper.restore(self.settings)
        if self.settings.remember_window:
            self.editors.tab_layout.restore(self.settings.window.tabs)
        self._on_chat_dock_visibility_changed()
        self.problems.refresh()

    @property
    def settings(self) -> Settings:
        return self.store.settings

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    # -- actions and menus ---------------------------------------------------------------------------

    def _on_library_panel_update_requested(self, directory: Path) -> None:
        self.tasks.spawn(self.installs.update_skill(directory))

    def _on_library_panel_remove_requested(self, directory: Path) -> None:
        self.tasks.spawn(self.installs.remove_skill(directory))

    def _spawn(self, make: Callable[[], Coroutine[Any, Any, object]]) -> Callable[[], None]:
        """A slot that starts the coroutine `make()` returns as one of the window's tasks."""

        def start() -> None:
            self.tasks.spawn(make())

        return start

    def _make_actions(self) -> None:
        editors, roots, ops = self.editors, self.roots, self.skill_ops
        key = QKeySequence.StandardKey

        self.new_action = make_action(self, "&New Skill…", self._spawn(ops.new_skill), "Ctrl+N",
                                      "Create a skill from the template")
        self.add_root_action = make_action(
            self, "&Add Folder of Skills…", self._spawn(lambda: roots.pick_root(zip_file=False)),
            "Ctrl+O", "Add a folder to the library")
        self.add_zip_action = make_action(
            self, "Add &Zip of Skills…", self._spawn(lambda: roots.pick_root(zip_file=True)),
            None, "Add a zip archive (read-only) to the library")
        self.add_served_action = make_action(
            self, "Add &MCP Server of Skills…", self._spawn(lambda: add_served_root(
                roots, self._feedback, self)), None, "Add an MCP server's skills (read-only)")
        self.install_url_action = make_action(
            self, "&Install Skills…", self._spawn(self.installs.install_from_url), None,
            "Download a zip or tar.gz of skills, check it and install it")
        self.remove_root_action = make_action(self, "&Remove Root", lambda: roots.remove_root(),
                                              None, "Remove the selected root from the library")
        self.save_action = make_action(self, "&Save", editors.save_current, key.Save,
                                       "Save the current tab")
        self.close_tab_action = make_action(self, "&Close Tab", editors.close_current, "Ctrl+W")
        self.settings_action = make_action(self, "Se&ttings…", self._spawn(self.open_settings),
                                           key.Preferences)
        self.quit_action = make_action(self, "&Quit", self.close, "Ctrl+Q")
        self.edit_undo = EditUndo(self, editors, self.fix_all, self.tasks, self)
        self.undo_action = self.edit_undo.undo_action
        self.redo_action = self.edit_undo.redo_action
        self.filter_action = make_action(self, "&Filter Library", self.library_panel.focus_filter,
                                         "Ctrl+F", "Filter the library by name or description")
        self.fix_action = make_action(self, "Apply &Fix", self._spawn(ops.apply_fix), "Ctrl+.",
                                      "Apply the fix offered for a problem")
        self.rename_action = make_action(self, "&Rename Skill…", self._spawn(ops.rename_skill),
                                         "F2", "Rename the skill: its folder and its name together")
        self.delete_action = make_action(self, "&Delete Skill…", self._spawn(ops.delete_skill),
                                         None, "Move the skill's folder to the trash")
        self.validate_action = make_action(self, "Show Problems of the &Whole Library",
                                           self.show_library_problems, "Ctrl+Shift+M")
        self.rescan_action = make_action(self, "Rescan &Library", roots.rescan, "F5")

        self.locations_menu = LocationsMenu(self.library, roots, self)
        self.menus = make_menus(
            self,
            file=[self.new_action, self.add_root_action, self.add_zip_action,
                  self.add_served_action, self.locations_menu,
                  self.install_url_action, self.remove_root_action, None, self.save_action,
                  self.close_tab_action, None, self.settings_action, None, self.quit_action],
            edit=[self.undo_action, self.redo_action, None,
                  self.filter_action, self.fix_action, self.problems_panel.fix_every_action],
            skill=[self.rename_action, self.delete_action, None, self.validate_action,
                   self.rescan_action],
            view=[self.library_dock.toggleViewAction(), self.library_panel.flat_action,
                  self.problems_dock.toggleViewAction()],
            locations=self.locations_menu)

        toolbar = self.library_panel.toolbar
        add_button = QToolButton()
        add_button.setText("Add")
        add_button.setToolTip("Add a folder or zip of skills, an MCP server, or a standard location")
        add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        add_menu = QMenu(add_button)
        add_menu.addAction(self.add_root_action)
        add_menu.addAction(self.add_zip_action)
        add_menu.addAction(self.add_served_action)
        add_menu.addMenu(self.locations_menu)
        add_button.setMenu(add_menu)
        toolbar.addAction(self.new_action)
        toolbar.addWidget(add_button)
        toolbar.addAction(self.remove_root_action)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.new_action.setIconText("New")
        self.remove_root_action.setIconText("Remove")
        toolbar.setIconSize(QSize(16, 16))

    # -- the library ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Scan every root (settings and command line); the window is already usable."""
        # The window and what its start-up imported live as long as the process.
        collector.settle()
        self.roots.start()
        self._update_library_hint()
        if self.store.problems:
            self.statusBar().showMessage(self.store.problems[0], 15000)

    def _show_count(self) -> None:
        count = self.library.skill_count
        self.scan_label.setText(f"{count:,} skill{'s' * (count != 1)}")

    def _on_loader_progressed(self, count: int) -> None:
        unchecked = self.library.unchecked_count
        if unchecked:
            self.scan_label.setText(f"Checking skills… {count - unchecked:,} of {count:,}")
        else:
            self.scan_label.setText(f"Scanning skills… {count:,} found")

    def _on_loader_scan_started(self) -> None:
        self.scan_label.setText("Scanning skills…")
        self.scan_progress.show()

    def _on_library_model_skills_changed(self, _count: int) -> None:
        if self.loader.busy:
            self.chat.pane.skill_chooser.refresh_later()
            return
        self._show_count()
        self.chat.pane.skill_chooser.refresh()

    def _on_loader_scan_finished(self) -> None:
        self.scan_progress.hide()
        self._show_count()
        self.chat.pane.skill_chooser.refresh()
        errors = [state.error for state in self.library.roots() if state.error]
        if errors:
            self.statusBar().showMessage(errors[0], 15000)
        self._update_library_hint()

    def _update_library_hint(self) -> None:
        if not self.library.roots():
            self.library_panel.count_label.setText(
                "No skill folders yet: add one with Add ▸ (Ctrl+O).")

    def show_library_problems(self) -> None:
        self.problems_dock.show()
        self.problems_panel.scope.setCurrentIndex(1)

    def _on_problems_panel_fix_requested(self, problem: Problem) -> None:
        self.tasks.spawn(self.skill_ops.apply_fix(problem))

    def _on_problems_panel_fix_all_requested(self, code: str, directories: list[Path]) -> None:
        self.tasks.spawn(self.fix_all.fix_every(code, directories))

    # -- settings -------------------------------------------------------------------------------------

    async def open_settings(self) -> bool:
        dialog = SettingsDialog(self.settings, self, session_roots=self.roots.session_roots)
        if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
            return False
        old_roots = set(self.roots.root_paths())
        old_hidden = self.settings.include_hidden
        old_font = replace(self.settings.editor_font)
        self.store.settings = dialog.result_settings()
        self.roots.session_roots = dialog.session_roots()
        try:
            self.store.save(explicit=True)
        except OSError as exc:
            self._feedback.tell("Settings not saved",
                                f"{self.store.path} could not be written: {exc}")
        if self.settings.editor_font != old_font:
            self.editors.set_editor_font(editor_font(self.settings.editor_font))
        self.roots.settings_changed(old_roots, old_hidden)
        self.chat.pane.model_bar.apply_settings()
        return True

    # -- session --------------------------------------------------------------------------------------

    def _on_chat_dock_visibility_changed(self, _visible: bool = False) -> None:
        self.welcome.setText(WELCOME.format(chat=CHAT_HIDDEN if self.chat.dock.isHidden() else ""))

    def remember_session(self) -> None:
        (settings := self.settings).library_flat = self.library_panel.flat_action.isChecked()
        if settings.remember_window:
            self.geometry_keeper.remember(settings)
            settings.window.tabs = self.editors.tab_layout.to_text()
        if settings.remember_open_tabs:
            settings.open_tabs = [str(tab.directory) for tab in self.editors.editor_tabs()
                                  if isinstance(tab, SkillEditorTab)]
        self.store.save()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            for tab in self.editors.editor_tabs():
                tab.refresh_colors()

    def close_without_asking(self) -> None:
        """Close now, keeping unsaved edits only for recovery (offered back at the next start)."""
        self.autosaver.flush()
        self._close_allowed = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._close_allowed:
            self.loader.stop()
            self.watcher.stop()
            self.autosaver.stop()
            self.evals.close()
            self.remember_session()
            event.accept()
            self.closed.emit()
            return
        event.ignore()
        self.tasks.spawn(self._close_when_confirmed())

    async def _close_when_confirmed(self) -> None:
        if await self.editors.confirm_close(self.editors.editor_tabs()):
            for tab in self.editors.editor_tabs():
                self.autosaver.forget(tab)
            self._close_allowed = True
            self.close()

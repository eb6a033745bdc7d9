"""The chat in the main window: the Chat dock beside the editor, "Try in Chat" on skill tabs (a
button at the tabs' corner, the tab's context menu and the Skill menu), and Tools ▸ Approvals and
Tools ▸ Audit Log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QToolButton

from studio.settings import SettingsStore
from studio.skills import SkillSummary
from studio.skills.library import Library
from studio.ui.chat.agentfiles import AgentFiles
from studio.ui.chat.audit_dialog import AuditDialog
from studio.ui.chat.grants_dialog import GrantsDialog
from studio.ui.chat.model_file import ModelFileOpener
from studio.ui.chat.pane import ChatPane
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.tabs import EditorTabs
from studio.ui.menus import Menus

CHAT_WIDTH = 430
# Below this width (a 1366x768 laptop, say) the editor needs the room: the dock starts hidden, and
# View ▸ Chat or Try in Chat opens it.
SCREEN_WIDTH_FOR_CHAT = 1600
# The editor's width below which a body can no longer be read (Try in Chat once left it 130 px),
# and the chat's below which it cannot: the dock narrows to spare the editor, or floats.
EDITOR_MIN_WIDTH = 520
CHAT_MIN_WIDTH = 340


class WindowSkills:
    """The chat's view of the studio's skills: the library's (read from the core `Library`, as
    the library tree is), and the text of open editors."""

    def __init__(self, library: Library, editors: EditorTabs) -> None:
        self._library = library
        self._editors = editors

    def library_skills(self) -> list[SkillSummary]:
        return self._library.summaries()

    def loadable_count(self) -> int:
        return self._library.loadable_count

    def unsaved(self, directory: Path) -> tuple[SkillSummary, str] | None:
        tab = self._editors.skill_tab(directory)
        if tab is None or not tab.dirty:
            return None
        return self._editors.summary_of(tab), tab.text()

    def writable_folders(self) -> list[Path]:
        return [state.path for state in self._library.roots()
                if not state.root.read_only and state.path.is_dir()]


class ChatDock(QObject):
    """Puts the chat pane into the window and adds its actions to the menus it is handed.

    Attributes:
        pane: the chat pane.
        dock: the dock holding it.
    """

    def __init__(self, window: QMainWindow, store: SettingsStore, library: Library,
                 editors: EditorTabs, menus: Menus,
                 close_tab: Callable[[SkillEditorTab], object]) -> None:
        super().__init__(window)
        self._window = window
        self._editors = editors
        self._close_tab = close_tab
        self.pane = ChatPane(store, WindowSkills(library, editors), parent=window)
        self.dock = QDockWidget("Chat", window)
        self.dock.setObjectName("chatDock")
        self.dock.setWidget(self.pane)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                              | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        # The chat runs the window's full height; the problems stay under the editor.
        window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        window.resizeDocks([self.dock], [CHAT_WIDTH], Qt.Orientation.Horizontal)
        if window.screen().availableGeometry().width() < SCREEN_WIDTH_FOR_CHAT:
            self.dock.hide()
        self._resized = False
        self._room_timer = QTimer(self)
        self._room_timer.setSingleShot(True)
        self._room_timer.setInterval(0)
        self._room_timer.timeout.connect(self.give_the_editor_room)
        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        self._grants_dialog: GrantsDialog | None = None
        self._audit_dialog: AuditDialog | None = None

        self.try_action = QAction("&Try in Chat", window)
        self.try_action.setShortcut(QKeySequence("Ctrl+Shift+T"))
        self.try_action.setStatusTip("Start a chat with this skill, as the editor has it (saved or not)")
        self.try_action.setToolTip("Try this skill in a chat, with its unsaved changes (Ctrl+Shift+T)")
        self.try_action.triggered.connect(self._on_try_action_triggered)
        window.addAction(self.try_action)
        self.approvals_action = QAction("&Approvals…", window)
        self.approvals_action.setStatusTip("See and revoke the commands you chose to always allow")
        self.approvals_action.triggered.connect(self.show_grants)
        self.audit_action = QAction("Audit &Log…", window)
        self.audit_action.setStatusTip("See every decision about a skill's command, and every run")
        self.audit_action.triggered.connect(self.show_audit)
        self.models_action = QAction("&Models…", window)
        self.models_action.setStatusTip("Download a small model that can use skills, and chat with it")
        self.models_action.triggered.connect(self.pane.model_bar.show_models_dialog)

        first = menus.skill.actions()[:1]
        if first:
            menus.skill.insertAction(first[0], self.try_action)
            menus.skill.insertSeparator(first[0])
        else:
            menus.skill.addAction(self.try_action)
        self.model_files = ModelFileOpener(window, store, self.pane.model_bar, self.pane.tasks)
        # After the library's entries, before Save: File ▸ Open Model File…, Recent Model Files.
        separators = [action for action in menus.file.actions() if action.isSeparator()]
        if separators:
            menus.file.insertSeparator(separators[0])
            menus.file.insertAction(separators[0], self.model_files.open_action)
            menus.file.insertMenu(separators[0], self.model_files.recent_menu)
        else:
            menus.file.addAction(self.model_files.open_action)
            menus.file.addMenu(self.model_files.recent_menu)
        menus.view.addAction(self.dock.toggleViewAction())
        menus.tools.addAction(self.models_action)
        menus.tools.addSeparator()
        menus.tools.addAction(self.approvals_action)
        menus.tools.addAction(self.audit_action)
        self.agent_files = AgentFiles(window, self.pane.agent_picker, store, self.pane.next_turn,
                                      self.dock, menus, self.pane.tasks)

        tabs = editors.tabs
        self.try_button = QToolButton()
        self.try_button.setObjectName("tryInChatButton")
        self.try_button.setDefaultAction(self.try_action)
        self.try_button.setText("Try in Chat")
        self.try_button.setAutoRaise(True)
        tabs.setCornerWidget(self.try_button, Qt.Corner.TopRightCorner)
        bar = tabs.tabBar()
        bar.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        bar.customContextMenuRequested.connect(self._on_tab_bar_custom_context_menu_requested)
        tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.pane.busy_changed.connect(self._on_pane_busy_changed)
        self.pane.chat_actions.skill_drafted.connect(self._on_chat_actions_skill_drafted)
        self._on_tabs_current_changed(tabs.currentIndex())

    def try_skill(self, tab: SkillEditorTab) -> bool:
        """Start a chat with the skill of `tab`, using the editor's text, saved or not."""
        self.dock.show()
        self.dock.raise_()
        return self.pane.try_skill(self._editors.summary_of(tab))

    def _on_try_action_triggered(self) -> None:
        tab = self._editors.current_skill_tab()
        if tab is not None:
            self.try_skill(tab)

    def _on_chat_actions_skill_drafted(self, name: str, text: str) -> None:
        self._editors.open_draft(name, text)

    def _on_pane_busy_changed(self, busy: bool) -> None:
        self.dock.setWindowTitle("Chat · answering…" if busy else "Chat")

    def _on_tabs_current_changed(self, _index: int) -> None:
        enabled = self._editors.current_skill_tab() is not None
        self.try_action.setEnabled(enabled)
        self.try_button.setVisible(enabled)

    def _on_tab_bar_custom_context_menu_requested(self, point: QPoint) -> None:
        tabs = self._editors.tabs
        bar = tabs.tabBar()
        index = bar.tabAt(point)
        tab = tabs.widget(index) if index >= 0 else None
        if not isinstance(tab, SkillEditorTab):
            return
        menu = QMenu(bar)
        action = menu.addAction("Try in Chat")
        action.triggered.connect(lambda: self.try_skill(tab))
        menu.addAction("Close Tab").triggered.connect(lambda: self._close_tab(tab))
        menu.popup(bar.mapToGlobal(point))

    def _on_dock_visibility_changed(self, visible: bool) -> None:
        if visible:
            # Once the window has laid the dock out.
            self._room_timer.start()

    def give_the_editor_room(self) -> None:
        """If the docked chat leaves the editor too narrow to read, narrow the chat; when there is
        no room for both (the window squeezes the chat instead), float it over the window's right
        side."""
        central = self._window.centralWidget()
        if self.dock.isHidden() or self.dock.isFloating() or central is None:
            return
        screen = self._window.screen().availableGeometry()
        # Docked, the chat may push the window past the screen's edge (its minimum width and
        # the editor's): then it floats, and the window comes back to the screen's width.
        grown = self._window.width() > screen.width()
        if (not grown and central.width() >= EDITOR_MIN_WIDTH
                and self.dock.width() >= CHAT_MIN_WIDTH):
            self._resized = False
            return
        # The chat and the editor share what the other docks leave.
        room = self.dock.width() + central.width() - EDITOR_MIN_WIDTH
        if room >= CHAT_MIN_WIDTH and not self._resized and not grown:
            self._window.resizeDocks([self.dock], [room], Qt.Orientation.Horizontal)
            # Looked at again once laid out: the editor's own minimum may not let it narrow.
            self._resized = True
            self._room_timer.start()
            return
        self._resized = False
        self.dock.setFloating(True)
        if grown:
            self._window.resize(screen.width(), self._window.height())
        width = min(CHAT_WIDTH, screen.width())
        height = min(self._window.height(), screen.height())
        self.dock.resize(width, height)
        self.dock.move(min(self._window.geometry().right(), screen.right()) - width + 1,
                       max(self._window.geometry().top(), screen.top()))

    def show_grants(self) -> GrantsDialog:
        if self._grants_dialog is None:
            self._grants_dialog = GrantsDialog(self.pane.sessions.grants, self._window)
        self._grants_dialog.refresh()
        self._grants_dialog.show()
        self._grants_dialog.raise_()
        return self._grants_dialog

    def show_audit(self) -> AuditDialog:
        if self._audit_dialog is None:
            self._audit_dialog = AuditDialog(self.pane.sessions.audit, self._window)
        self._audit_dialog.refresh()
        self._audit_dialog.show()
        self._audit_dialog.raise_()
        return self._audit_dialog

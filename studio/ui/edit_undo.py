"""Edit ▸ Undo and Redo, and their keys: they act on the undo history of whatever has the focus
(an Evals tab's tables have their own; an editor tab's views share their file's; a text box
elsewhere, such as the chat's message, has its own), and the menu items say what that history
would undo and whether it can."""

from __future__ import annotations

from PySide6.QtCore import QMetaObject, QObject
from PySide6.QtGui import QKeySequence, QTextDocument, QUndoStack
from PySide6.QtWidgets import QApplication, QMainWindow, QPlainTextEdit, QTextEdit, QWidget

from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.file_tab import FileTab
from studio.ui.editor.tabs import EditorTabs
from studio.ui.menus import make_action
from studio.ui.problems.fix_all import FixAll
from studio.ui.tasks import TaskSet

History = QUndoStack | QTextDocument


def focused_history(focus: QWidget | None) -> History | None:
    """The undo history the focused widget edits: its editor tab's, its Evals tables', or a text
    box's own (the chat's message); None elsewhere.

    A view that keeps a history of its own (the Evals tables) names it `undo_stack`; asked by that
    name, so the Edit menu need not know every such view."""
    widget = focus
    while widget is not None:
        stack = getattr(widget, "undo_stack", None)
        if isinstance(stack, QUndoStack):
            return stack
        if isinstance(widget, SkillEditorTab | FileTab):
            return widget.document
        widget = widget.parentWidget()
    if isinstance(focus, QPlainTextEdit | QTextEdit) and focus.isUndoRedoEnabled():
        return focus.document()
    return None


class EditUndo(QObject):
    """The window's Undo and Redo actions, following the focus.

    Outside every editor, Undo takes back the last fix of many skills when there is one (what
    the user last did out there), and otherwise both act on the current tab.

    Attributes:
        undo_action, redo_action: the actions, for the Edit menu.
    """

    def __init__(self, window: QMainWindow, editors: EditorTabs, fix_all: FixAll, tasks: TaskSet,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editors = editors
        self._fix_all = fix_all
        self._tasks = tasks
        self._watched: History | None = None
        self._connections: list[QMetaObject.Connection] = []
        self.undo_action = make_action(window, "&Undo", self.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = make_action(window, "&Redo", self.redo, QKeySequence.StandardKey.Redo)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._on_app_focus_changed)
        editors.tabs.currentChanged.connect(self._on_tabs_current_changed)
        fix_all.undo_changed.connect(self._on_fix_all_undo_changed)
        self.refresh()

    def _history(self) -> tuple[History | None, bool]:
        """The history Undo and Redo act on, and whether the focus is in an editor."""
        focused = focused_history(QApplication.focusWidget())
        if focused is not None:
            return focused, True
        tab = self._editors.current_tab()
        return (tab.document if tab is not None else None), False

    def undo(self) -> None:
        history, in_editor = self._history()
        if not in_editor and self._fix_all.undo_title:
            self._tasks.spawn(self._fix_all.undo_last())
        elif history is not None:
            history.undo()

    def redo(self) -> None:
        history, _in_editor = self._history()
        if history is not None:
            history.redo()

    def refresh(self) -> None:
        """Say what Undo and Redo would do now, and follow that history's changes."""
        history, in_editor = self._history()
        self._watch(history)
        if not in_editor and self._fix_all.undo_title:
            self.undo_action.setText(f"&Undo {self._fix_all.undo_title}")
            self.undo_action.setEnabled(True)
        elif isinstance(history, QUndoStack):
            self.undo_action.setText(_titled("&Undo", history.undoText()))
            self.undo_action.setEnabled(history.canUndo())
        else:
            self.undo_action.setText("&Undo")
            self.undo_action.setEnabled(history is not None and history.isUndoAvailable())
        if isinstance(history, QUndoStack):
            self.redo_action.setText(_titled("&Redo", history.redoText()))
            self.redo_action.setEnabled(history.canRedo())
        else:
            self.redo_action.setText("&Redo")
            self.redo_action.setEnabled(history is not None and history.isRedoAvailable())

    def _watch(self, history: History | None) -> None:
        if history is self._watched:
            return
        for connection in self._connections:
            QObject.disconnect(connection)
        self._connections = []
        self._watched = history
        if isinstance(history, QUndoStack):
            self._connections = [history.indexChanged.connect(self._on_history_changed),
                                 history.cleanChanged.connect(self._on_history_changed)]
        elif history is not None:
            self._connections = [history.undoAvailable.connect(self._on_history_changed),
                                 history.redoAvailable.connect(self._on_history_changed)]
        if history is not None:
            self._connections.append(history.destroyed.connect(self._on_history_destroyed))

    def _on_history_changed(self, *_args: object) -> None:
        self.refresh()

    def _on_history_destroyed(self, *_args: object) -> None:
        # Its tab is going (the window with it, maybe): the next focus or tab change says anew.
        self._connections = []
        self._watched = None

    def _on_app_focus_changed(self, _old: QWidget | None, _new: QWidget | None) -> None:
        self.refresh()

    def _on_tabs_current_changed(self, _index: int) -> None:
        self.refresh()

    def _on_fix_all_undo_changed(self, _title: str) -> None:
        self.refresh()


def _titled(verb: str, what: str) -> str:
    return f"{verb} {what}" if what else verb

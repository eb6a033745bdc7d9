"""The library filter's keys, as in VS Code's quick open: Down moves to the first match in the
list below (the tree, or the search's results), and Enter opens the first match without leaving
the box. Enter on a skill in the list opens it (the list's own `activated`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QStackedWidget

from studio.ui.library.library_rows import KIND_ROLE

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def first_skill(model: QAbstractItemModel, parent: QModelIndex | None = None) -> QModelIndex:
    """The first skill row under `parent`, in the order the tree shows them (a search result's
    model has no kinds: its first row)."""
    parent = parent if parent is not None else QModelIndex()
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        kind = index.data(KIND_ROLE)
        if kind in (None, "skill"):
            return index
        if kind in ("root", "folder"):
            found = first_skill(model, index)
            if found.isValid():
                return found
    return QModelIndex()


class FilterKeys(QObject):
    """Watches the filter box's keys.

    `settle` applies a filter still waiting for its delay (Enter right after typing opens a
    match of what was typed); `open_index` opens a row of the list shown.
    """

    def __init__(self, edit: QLineEdit, views: QStackedWidget, settle: Callable[[], None],
                 open_index: Callable[[QModelIndex], None]) -> None:
        super().__init__(edit)
        self._edit = edit
        self._views = views
        self._settle = settle
        self._open_index = open_index
        edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self._edit or event.type() != QEvent.Type.KeyPress:
            return False
        assert isinstance(event, QKeyEvent)
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if event.key() == Qt.Key.Key_Down:
            self._to_first_match()
            return True
        if event.key() in _ENTER and self._edit.text().strip():
            self._settle()
            index = self._first_match()
            if index.isValid():
                self._open_index(index)
            return True
        return False

    def _view(self) -> QAbstractItemView:
        view = self._views.currentWidget()
        assert isinstance(view, QAbstractItemView)
        return view

    def _first_match(self) -> QModelIndex:
        model = self._view().model()
        return first_skill(model) if model is not None else QModelIndex()

    def _to_first_match(self) -> None:
        self._settle()
        index = self._first_match()
        if not index.isValid():
            return
        view = self._view()
        view.setCurrentIndex(index)
        view.scrollTo(index)
        view.setFocus(Qt.FocusReason.TabFocusReason)

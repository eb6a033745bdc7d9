"""The box Quick Open and the command palette share: a line to type in over a list of the best
matches, floating at the top of the window as in VS Code. It is a child of the window shown and
hidden in place (no dialog, no event loop of its own), and it closes when the focus leaves it.

The keyboard drives it whole: typing filters, Up/Down/Page Up/Page Down move in the list while
the focus stays in the line, Enter chooses, Escape closes and gives the focus back to where it
was."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QLabel,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from studio.ui.indexes import NO_PARENT, Index
from studio.ui.quickopen.entries import Entry

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
# The box's widest, and how many rows it shows before the list scrolls.
WIDTH = 640
ROWS_SHOWN = 12
MOVES = {Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown}


class EntryList(QAbstractListModel):
    """The rows shown now: at most a few hundred of the entries, reset on each search."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries: list[Entry] = []

    def show(self, entries: list[Entry]) -> None:
        self.beginResetModel()
        self.entries = entries
        self.endResetModel()

    def rowCount(self, parent: Index = NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self.entries)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        entry = self.entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.name
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(part for part in (entry.name, entry.hint, entry.keys) if part)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return ", ".join(part for part in (entry.hint, entry.keys) if part)
        if role == ENTRY_ROLE:
            return entry
        return None


class EntryDelegate(QStyledItemDelegate):
    """A row: the name, then where it is, dimmed and cut in the middle when long, and the
    shortcut at the right."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        entry = index.data(ENTRY_ROLE)
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        widget = item.widget
        style = widget.style() if widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, item, widget)
        item.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        if not isinstance(entry, Entry):
            return
        metrics = item.fontMetrics
        rect = rect.adjusted(4, 0, -4, 0)
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        text = item.palette.color(QPalette.ColorRole.HighlightedText if selected
                                  else QPalette.ColorRole.Text)
        dim = item.palette.color(QPalette.ColorRole.PlaceholderText)
        if selected:
            dim = QPalette(text).color(QPalette.ColorRole.WindowText)
            dim.setAlphaF(0.75)
        align = Qt.AlignmentFlag.AlignVCenter
        painter.save()
        painter.setFont(item.font)
        keys_width = metrics.horizontalAdvance(entry.keys) if entry.keys else 0
        if keys_width:
            painter.setPen(dim)
            painter.drawText(rect, align | Qt.AlignmentFlag.AlignRight, entry.keys)
        room = rect.width() - (keys_width + 16 if keys_width else 0)
        name = metrics.elidedText(entry.name, Qt.TextElideMode.ElideMiddle, room)
        painter.setPen(text)
        painter.drawText(QRect(rect.left(), rect.top(), room, rect.height()), align, name)
        used = metrics.horizontalAdvance(name) + 12
        if entry.hint and room - used > metrics.horizontalAdvance("……"):
            hint = metrics.elidedText(entry.hint, Qt.TextElideMode.ElideMiddle, room - used)
            painter.setPen(dim)
            painter.drawText(QRect(rect.left() + used, rect.top(), room - used, rect.height()),
                             align, hint)
        painter.restore()


class QuickOpenPopup(QFrame):
    """The line and the list; the caller fills the list as the text changes.

    Signals:
        text_edited: (str) the user changed the text.
        entry_chosen: (Entry) Enter, or a click, on a row.
    """

    text_edited = Signal(str)
    entry_chosen = Signal(object)

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("quickOpen")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.line = QLineEdit()
        self.line.setAccessibleName("Quick Open")
        self.line.setClearButtonEnabled(True)
        self.results = EntryList(self)
        self.list = QListView()
        self.list.setModel(self.results)
        self.list.setItemDelegate(EntryDelegate(self.list))
        self.list.setUniformItemSizes(True)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setAccessibleName("Matches")
        self.count = QLabel()
        self.count.setObjectName("quickOpenCount")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.line)
        layout.addWidget(self.list)
        layout.addWidget(self.count)
        self._back_to: QWidget | None = None
        self.line.textEdited.connect(self.text_edited)
        self.line.installEventFilter(self)
        window.installEventFilter(self)  # to follow the window's size
        self.list.clicked.connect(self._on_list_clicked)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._on_app_focus_changed)
        self.hide()

    def open_with(self, text: str, placeholder: str) -> None:
        """Show the box at the top of the window with `text` typed, the focus in its line."""
        if not self.isVisible():
            focus = QApplication.focusWidget()
            self._back_to = focus if focus is not None and not self.isAncestorOf(focus) else None
        self.line.setPlaceholderText(placeholder)
        self.line.setText(text)
        self._place()
        self.show()
        self.raise_()
        # Not the shortcut's reason: a line focused so selects its text, and the first letter
        # typed would replace the palette's `>`.
        self.line.setFocus(Qt.FocusReason.OtherFocusReason)
        self.text_edited.emit(text)

    def show_entries(self, entries: list[Entry], count: str) -> None:
        self.results.show(entries)
        self.count.setText(count)
        self._place()
        if entries:
            self.list.setCurrentIndex(self.results.index(0, 0))

    def close_box(self) -> None:
        """Hide, and give the focus back to where it was before the box opened."""
        if not self.isVisible():
            return
        back, self._back_to = self._back_to, None
        self.hide()
        if back is not None and back.isVisible():
            back.setFocus(Qt.FocusReason.PopupFocusReason)

    def choose_current(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self.entry_chosen.emit(index.data(ENTRY_ROLE))

    def _place(self) -> None:
        window = self.parentWidget()
        assert window is not None
        width = min(WIDTH, window.width() - 40)
        # As tall as the rows shown, up to ROWS_SHOWN of them.
        row = self.list.sizeHintForRow(0) if self.results.entries else self.fontMetrics().height() + 6
        rows = min(max(len(self.results.entries), 1), ROWS_SHOWN)
        height = (self.line.sizeHint().height() + row * rows + 2 * self.list.frameWidth()
                  + self.count.sizeHint().height() + 20)
        height = min(height, window.height() - 60)
        top = 30
        bar = window.findChild(QWidget, "qt_menubar")
        if bar is not None:
            top = bar.geometry().bottom() + 4
        self.setGeometry((window.width() - width) // 2, top, width, height)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.line and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            return self._key(event)
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize and self.isVisible():
            self._place()
        return super().eventFilter(watched, event)

    def _key(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.close_box()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.choose_current()
            return True
        if key in MOVES:
            QApplication.sendEvent(self.list, QKeyEvent(event.type(), key, event.modifiers()))
            return True
        return False

    def _on_list_clicked(self, index: QModelIndex) -> None:
        self.list.setCurrentIndex(index)
        self.choose_current()

    def _on_app_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self.isVisible() and new is not None and not self.isAncestorOf(new):
            self._back_to = None
            self.hide()

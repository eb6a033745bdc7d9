"""Table models over a skill's eval files (`studio.evals.editing`), and the views that edit them.

A model never changes its file itself: `setData` hands the change to `edit` (the panel's undo
stack), which applies it, saves the file and says what changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from studio.evals import EVAL_COLUMNS, EditableFile, EvalsFile, TriggersFile

Index = QModelIndex | QPersistentModelIndex
Change = Callable[[], bool]
Edit = Callable[[str, Change], None]

EVAL_HEADERS = ("Id", "Prompt", "Expected output", "Expectations")
EVAL_TIPS = (
    "The eval's id (a number or a name)",
    "What the user asks",
    "What a good answer looks like (for you and the grader)",
    "One a line: a sentence the grader judges, or a check the studio makes itself:\n"
    "contains: TEXT, regex: PATTERN, activated: SKILL, ran: SCRIPT, read: FILE, exit_code: N",
)
TRIGGER_HEADERS = ("Query", "Should trigger")
# A faint red reads on light and dark palettes.
BAD_ROW = QColor(210, 58, 58, 50)


class _FileModel(QAbstractTableModel):
    """Rows of one eval file.

    Attributes:
        file: the eval file shown.
        bad_rows: rows the last validation pointed at (shown tinted).
    """

    headers: tuple[str, ...] = ()
    tips: tuple[str, ...] = ()

    def __init__(self, file: EditableFile, edit: Edit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.file = file
        self.bad_rows: set[int] = set()
        self.read_only = False
        self._edit = edit

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.file.rows())

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return section + 1 if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tips[section] if section < len(self.tips) else None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if not self.read_only and isinstance(self.file.rows()[index.row()], dict):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def _background(self, index: Index) -> QBrush | None:
        return QBrush(BAD_ROW) if index.row() in self.bad_rows else None

    def refresh(self) -> None:
        """Show the file again from scratch (after undo, redo or a reload)."""
        self.beginResetModel()
        self.endResetModel()

    def row_changed(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def set_bad_rows(self, rows: set[int]) -> None:
        changed = rows ^ self.bad_rows
        self.bad_rows = rows
        for row in changed:
            if row < self.rowCount():
                self.row_changed(row)


class EvalsTableModel(_FileModel):
    """evals/evals.json: id, prompt, expected output, expectations."""

    headers = EVAL_HEADERS
    tips = EVAL_TIPS

    def __init__(self, file: EvalsFile, edit: Edit, parent: QObject | None = None) -> None:
        super().__init__(file, edit, parent)
        self.evals = file

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self.evals.cell(index.row(), EVAL_COLUMNS[index.column()])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.evals.cell(index.row(), EVAL_COLUMNS[index.column()]) or EVAL_TIPS[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._background(index)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        row, column = index.row(), EVAL_COLUMNS[index.column()]
        self._edit(f"Edit {EVAL_HEADERS[index.column()].lower()} of eval {row + 1}",
                   lambda: self.evals.set_cell(row, column, str(value)))
        return True


class TriggersTableModel(_FileModel):
    """evals/triggers.json: the query, and whether the skill should be picked for it."""

    headers = TRIGGER_HEADERS
    tips = ("A request a user might make", "Checked: the model should pick this skill for it")

    def __init__(self, file: TriggersFile, edit: Edit, parent: QObject | None = None) -> None:
        super().__init__(file, edit, parent)
        self.triggers = file

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.column() == 1:
            flags &= ~Qt.ItemFlag.ItemIsEditable
            if not self.read_only:
                flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = index.row()
        if index.column() == 0 and role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole,
                                            Qt.ItemDataRole.ToolTipRole):
            return self.triggers.query(row)
        if index.column() == 1:
            should = self.triggers.should_trigger(row)
            if role == Qt.ItemDataRole.CheckStateRole:
                return Qt.CheckState.Checked if should else Qt.CheckState.Unchecked
            if role == Qt.ItemDataRole.DisplayRole:
                return "yes" if should else "no"
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._background(index)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        row = index.row()
        if index.column() == 0 and role == Qt.ItemDataRole.EditRole:
            self._edit(f"Edit query {row + 1}", lambda: self.triggers.set_query(row, str(value)))
            return True
        if index.column() == 1 and role == Qt.ItemDataRole.CheckStateRole:
            checked = Qt.CheckState(value) == Qt.CheckState.Checked
            self._edit(f"Change query {row + 1}",
                       lambda: self.triggers.set_should_trigger(row, checked))
            return True
        return False


class CellDelegate(QStyledItemDelegate):
    """Edits a cell: in a plain-text box (where Enter starts a new line) for the columns given,
    in a line otherwise; leaving it commits. What is typed is told as it is typed.

    Signals:
        draft_changed: (int row, int column, str) the text in a cell's editor, before it is
            committed.
    """

    draft_changed = Signal(int, int, str)

    def __init__(self, multiline_columns: tuple[int, ...], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._multiline = multiline_columns

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        row, column = index.row(), index.column()
        if column not in self._multiline:
            editor = super().createEditor(parent, option, index)
            if isinstance(editor, QLineEdit):
                editor.textEdited.connect(lambda text: self.draft_changed.emit(row, column, text))
            return editor
        box = QPlainTextEdit(parent)
        box.setTabChangesFocus(True)
        box.setMinimumHeight(option.rect.height() * 3)
        box.textChanged.connect(lambda: self.draft_changed.emit(row, column, box.toPlainText()))
        return box

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QPlainTextEdit):
            editor.setPlainText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        if isinstance(editor, QPlainTextEdit):
            model.setData(index, editor.toPlainText(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: Index) -> None:
        if not isinstance(editor, QPlainTextEdit):
            super().updateEditorGeometry(editor, option, index)
            return
        rect = option.rect
        rect.setHeight(max(rect.height(), editor.minimumHeight()))
        editor.setGeometry(rect)


class EvalTable(QTableView):
    """A table of an eval file whose Undo and Redo keys go to the Evals tab's own undo stack
    (as Edit ▸ Undo and Redo do while it has the focus).

    Attributes:
        delegate: edits its cells, and tells what is typed in them.

    Signals:
        undo_requested, redo_requested: the user pressed the keys.
    """

    undo_requested = Signal()
    redo_requested = Signal()

    def __init__(self, multiline_columns: tuple[int, ...] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setWordWrap(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.delegate = CellDelegate(multiline_columns, self)
        self.setItemDelegate(self.delegate)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and (
                event.matches(QKeySequence.StandardKey.Undo)
                or event.matches(QKeySequence.StandardKey.Redo)):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.undo_requested.emit()
        elif event.matches(QKeySequence.StandardKey.Redo):
            self.redo_requested.emit()
        else:
            super().keyPressEvent(event)

"""A plain-text editor with line numbers, used for the body, the raw SKILL.md and skill files."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from studio.editing import utf16_length
from studio.ui.theme import tone


class _LineNumberArea(QWidget):
    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)
        self._editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self._editor.line_number_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._editor.paint_line_numbers(event)


class CodeEditor(QPlainTextEdit):
    """QPlainTextEdit with a line-number gutter and a highlighted current line.

    `first_line` shifts the numbers, so an editor that shows only the body of a SKILL.md still
    numbers its lines as the file does. With `route_undo`, Ctrl+Z / Ctrl+Shift+Z are not handled
    here but reported, so the owner can undo on the one document all views share.

    Signals:
        undo_requested, redo_requested: the undo keys were pressed while `route_undo` is set.
    """

    undo_requested = Signal()
    redo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first_line = 1
        self.route_undo = False
        self._gutter = _LineNumberArea(self)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.blockCountChanged.connect(self._on_self_block_count_changed)
        self.updateRequest.connect(self._on_self_update_request)
        self.cursorPositionChanged.connect(self._on_self_cursor_position_changed)
        self._on_self_block_count_changed(0)

    def set_first_line(self, line: int) -> None:
        if line != self.first_line:
            self.first_line = line
            self._on_self_block_count_changed(0)
            self._gutter.update()

    def line_number_width(self) -> int:
        digits = len(str(max(1, self.blockCount() + self.first_line - 1)))
        return 14 + self.fontMetrics().horizontalAdvance("9") * max(digits, 3)

    def go_to(self, line: int, column: int = 1) -> None:
        """Put the cursor at a 1-based file line and column (shifted by `first_line`)."""
        block = self.document().findBlockByNumber(max(0, line - self.first_line))
        if not block.isValid():
            block = self.document().lastBlock()
        offset = utf16_length(block.text()[: max(0, column - 1)])
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + min(offset, block.length() - 1))
        self.setTextCursor(cursor)
        self.centerCursor()
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def current_line(self) -> int:
        return self.textCursor().blockNumber() + self.first_line

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.route_undo and event.matches(QKeySequence.StandardKey.Undo):
            self.undo_requested.emit()
            return
        if self.route_undo and event.matches(QKeySequence.StandardKey.Redo):
            self.redo_requested.emit()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            # Qt would insert U+2028, which Markdown and YAML read as text, not as a new line.
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        rect = self.contentsRect()
        self._gutter.setGeometry(QRect(rect.left(), rect.top(), self.line_number_width(),
                                       rect.height()))

    def paint_line_numbers(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        painter.fillRect(event.rect(), tone("#f3f4f6", "#24272b"))
        block = self.firstVisibleBlock()
        number = block.blockNumber()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        bottom = top + round(self.blockBoundingRect(block).height())
        current = self.textCursor().blockNumber()
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and bottom >= event.rect().top():
                painter.setPen(tone("#1f2328", "#e6e6e6") if number == current
                               else tone("#8c959f", "#6e7681"))
                painter.drawText(0, top, self._gutter.width() - 6, height,
                                 int(Qt.AlignmentFlag.AlignRight),
                                 str(number + self.first_line))
            block = block.next()
            top = bottom
            bottom = top + round(self.blockBoundingRect(block).height())
            number += 1
        painter.end()

    def _on_self_block_count_changed(self, _count: int) -> None:
        self.setViewportMargins(self.line_number_width(), 0, 0, 0)

    def _on_self_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())
        if rect.contains(self.viewport().rect()):
            self._on_self_block_count_changed(0)

    def _on_self_cursor_position_changed(self) -> None:
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(QColor(tone("#f6f8fa", "#2a2d31")))
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        selection.cursor = self.textCursor()
        selection.cursor.clearSelection()
        self.setExtraSelections([selection])
        self._gutter.update()

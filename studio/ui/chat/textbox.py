"""Read-only text that is as tall as its content: chat messages, commands and tool output.

Text wraps at word boundaries or, for long tokens such as paths, anywhere, so nothing is ever cut
off at the right edge. With `max_lines` the box stops growing at that many lines and scrolls.
"""

from __future__ import annotations

import html
import math
import re

from PySide6.QtCore import QSize, QSizeF, Qt
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget


def code_spans(text: str) -> str:
    """Plain text whose `code` spans (as the policy writes them) become rich text."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


class FittedText(QTextBrowser):
    """A QTextBrowser without its own scroll bar that grows to fit its document.

    Attributes:
        max_lines: the most lines shown before the box scrolls; None for no limit.
    """

    def __init__(self, *, monospace: bool = False, max_lines: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.max_lines = max_lines
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.document().setDocumentMargin(2)
        if monospace:
            self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._apply_scroll_policy()
        self.document().documentLayout().documentSizeChanged.connect(
            self._on_layout_document_size_changed)
        self._fit(self.document().size())

    def set_max_lines(self, max_lines: int | None) -> None:
        self.max_lines = max_lines
        self._apply_scroll_policy()
        self._fit(self.document().size())

    def _apply_scroll_policy(self) -> None:
        self.setVerticalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAsNeeded if self.max_lines is not None
            else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def _cap(self) -> int | None:
        if self.max_lines is None:
            return None
        line = self.fontMetrics().lineSpacing()
        return math.ceil(line * self.max_lines + 2 * self.document().documentMargin())

    def _fit(self, size: QSizeF) -> None:
        height = math.ceil(size.height())
        cap = self._cap()
        if cap is not None:
            height = min(height, cap)
        height += 2 * self.frameWidth()
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(max(height, self.fontMetrics().height()))

    def _on_layout_document_size_changed(self, size: QSizeF) -> None:
        self._fit(size)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.height())

    def line_count(self) -> int:
        """How many lines the text has (not how many it wraps into)."""
        return self.document().blockCount()

"""Colours a unified diff: what a fix or a restored copy would change, shown before it is applied."""

from __future__ import annotations

from PySide6.QtGui import QSyntaxHighlighter, QTextCharFormat, QTextDocument

from studio.ui.icons import GREEN, RED


class DiffHighlighter(QSyntaxHighlighter):
    """Added lines green, removed lines red."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._added = QTextCharFormat()
        self._added.setForeground(GREEN)
        self._removed = QTextCharFormat()
        self._removed.setForeground(RED)

    def highlightBlock(self, text: str) -> None:
        if text.startswith("+") and not text.startswith("+++"):
            self.setFormat(0, len(text), self._added)
        elif text.startswith("-") and not text.startswith("---"):
            self.setFormat(0, len(text), self._removed)

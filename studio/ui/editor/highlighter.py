"""Markdown highlighting (and YAML frontmatter highlighting for the whole SKILL.md)."""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from studio.editing import utf16_length
from studio.ui.theme import tone

NORMAL, CODE_BLOCK, FRONTMATTER = 0, 1, 2

HEADING = re.compile(r"^#{1,6}\s.*$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
QUOTE = re.compile(r"^\s{0,3}>.*$")
INLINE_CODE = re.compile(r"`[^`\n]+`")
BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
ITALIC = re.compile(r"(?<![*\w])([*_])(?=\S)(.+?)(?<=\S)\1(?![*\w])")
LINK = re.compile(r"!?\[[^\]\n]*\]\([^)\n]*\)")
YAML_KEY = re.compile(r"^(\s*)([^\s:#][^:#]*?)(:)(?=\s|$)")
YAML_COMMENT = re.compile(r"(?:^|\s)(#.*)$")


def _format(color: QColor, *, bold: bool = False, italic: bool = False,
            background: QColor | None = None) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(color)
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    if italic:
        fmt.setFontItalic(True)
    if background is not None:
        fmt.setBackground(background)
    return fmt


class MarkdownHighlighter(QSyntaxHighlighter):
    """Highlights Markdown; with `frontmatter`, also the YAML between the first two `---` lines."""

    def __init__(self, document: QTextDocument, *, frontmatter: bool = False) -> None:
        super().__init__(document)
        self._frontmatter = frontmatter
        self.refresh_colors()

    def refresh_colors(self) -> None:
        """Pick colours for the current (light or dark) palette and highlight again."""
        self._heading = _format(tone("#0b5cad", "#6cb6ff"), bold=True)
        self._code = _format(tone("#8a3b12", "#f0a36b"), background=tone("#f6f8fa", "#2b2f34"))
        self._fence = _format(tone("#6e7781", "#8b949e"), background=tone("#f6f8fa", "#2b2f34"))
        self._bold = _format(tone("#1f2328", "#e6edf3"), bold=True)
        self._italic = _format(tone("#1f2328", "#e6edf3"), italic=True)
        self._link = _format(tone("#0969da", "#58a6ff"))
        self._mark = _format(tone("#953800", "#ffa657"), bold=True)
        self._quote = _format(tone("#57606a", "#8b949e"), italic=True)
        self._delimiter = _format(tone("#8250df", "#d2a8ff"), bold=True)
        self._key = _format(tone("#116329", "#7ee787"), bold=True)
        self._comment = _format(tone("#6e7781", "#8b949e"), italic=True)
        self.rehighlight()

    def _apply(self, text: str, start: int, length: int, fmt: QTextCharFormat) -> None:
        """setFormat with Python offsets converted to the block's UTF-16 positions."""
        begin = utf16_length(text[:start])
        self.setFormat(begin, utf16_length(text[start:start + length]), fmt)

    def highlightBlock(self, text: str) -> None:
        previous = self.previousBlockState()
        block_number = self.currentBlock().blockNumber()
        if self._frontmatter and (previous == FRONTMATTER or block_number == 0):
            self._highlight_frontmatter(text, block_number == 0)
            return
        if previous == CODE_BLOCK:
            self._apply(text, 0, len(text), self._fence if FENCE.match(text) else self._code)
            self.setCurrentBlockState(NORMAL if FENCE.match(text) else CODE_BLOCK)
            return
        if FENCE.match(text):
            self._apply(text, 0, len(text), self._fence)
            self.setCurrentBlockState(CODE_BLOCK)
            return
        self.setCurrentBlockState(NORMAL)
        if HEADING.match(text):
            self._apply(text, 0, len(text), self._heading)
            return
        if QUOTE.match(text):
            self._apply(text, 0, len(text), self._quote)
        mark = LIST_MARK.match(text)
        if mark:
            self._apply(text, 0, mark.end(), self._mark)
        for pattern, fmt in ((BOLD, self._bold), (ITALIC, self._italic), (LINK, self._link),
                             (INLINE_CODE, self._code)):
            for match in pattern.finditer(text):
                self._apply(text, match.start(), match.end() - match.start(), fmt)

    def _highlight_frontmatter(self, text: str, first: bool) -> None:
        is_delimiter = text.rstrip(" \t") in ("---", "\ufeff---")
        if first:
            if is_delimiter:
                self._apply(text, 0, len(text), self._delimiter)
                self.setCurrentBlockState(FRONTMATTER)
            else:
                self.setCurrentBlockState(NORMAL)
                self._frontmatter_off_highlight(text)
            return
        if is_delimiter:
            self._apply(text, 0, len(text), self._delimiter)
            self.setCurrentBlockState(NORMAL)
            return
        self.setCurrentBlockState(FRONTMATTER)
        key = YAML_KEY.match(text)
        if key:
            self._apply(text, key.start(2), key.end(3) - key.start(2), self._key)
        comment = YAML_COMMENT.search(text)
        if comment and "'" not in text[:comment.start(1)] and '"' not in text[:comment.start(1)]:
            self._apply(text, comment.start(1), len(text) - comment.start(1), self._comment)

    def _frontmatter_off_highlight(self, text: str) -> None:
        frontmatter, self._frontmatter = self._frontmatter, False
        try:
            self.highlightBlock(text)
        finally:
            self._frontmatter = frontmatter

"""Turning offsets into 1-based lines and columns, and back."""

from __future__ import annotations

from bisect import bisect_right

from studio.skills.model import Span


class LineIndex:
    """The start offset of every line of a text, split on `\\n` (so CRLF and LF alike)."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        starts = [0]
        find = text.find
        position = find("\n")
        while position != -1:
            starts.append(position + 1)
            position = find("\n", position + 1)
        self._starts = starts

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def position(self, offset: int) -> tuple[int, int]:
        """The (line, column) of an offset, both 1-based."""
        offset = max(0, min(offset, len(self._text)))
        line = bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def offset(self, line: int, column: int = 1) -> int:
        line = max(1, min(line, len(self._starts)))
        return min(self._starts[line - 1] + column - 1, len(self._text))

    def line_start(self, line: int) -> int:
        return self.offset(line, 1)

    def line_end(self, line: int) -> int:
        """Offset of the end of a line's content, before its `\\r\\n` or `\\n`."""
        end = len(self._text) if line >= len(self._starts) else self._starts[line] - 1
        if end > 0 and end <= len(self._text) and self._text[end - 1 : end] == "\r":
            end -= 1
        return end

    def line_text(self, line: int) -> str:
        return self._text[self.line_start(line) : self.line_end(line)]

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column, start, end)

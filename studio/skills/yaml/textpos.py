"""Turning offsets into 1-based lines and columns, and back."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from studio.skills.model import Span

_BREAK = re.compile(r"\r\n|\r|\n")


class LineIndex:
    """The start offset of every line of a text; CRLF, LF and a lone CR all end a line."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        lines = text.splitlines(keepends=True)
        if "\r" in text:
            breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        else:
            breaks = text.count("\n")
        if len(lines) == breaks + (0 if text.endswith(("\n", "\r")) or not text else 1):
            # splitlines broke on \r\n, \r and \n alone (no other separators): all in C.
            starts = [0, *accumulate(map(len, lines))]
            if len(starts) > 1 and starts[-1] == len(text) and not text.endswith(("\n", "\r")):
                starts.pop()
        else:
            starts = [0, *(match.end() for match in _BREAK.finditer(text))]
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
        """Offset of the end of a line's content, before its line break."""
        line = max(1, min(line, len(self._starts)))
        if line == len(self._starts):
            return len(self._text)
        end = self._starts[line]
        text = self._text
        if end > 0 and text[end - 1] == "\n":
            end -= 1
        if end > 0 and text[end - 1] == "\r":
            end -= 1
        return end

    def line_text(self, line: int) -> str:
        return self._text[self.line_start(line) : self.line_end(line)]

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column, start, end)


def position_in(text: str, offset: int) -> tuple[int, int]:
    """The (line, column) of one offset, 1-based, without indexing the whole text."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    if "\r" in text:
        line += text.count("\r", 0, offset) - text.count("\r\n", 0, offset)
        start = max(start, text.rfind("\r", 0, offset) + 1)
    return line + 1, offset - start + 1

"""The skills catalog kept in a project's AGENTS.md, for agents that read that file and load no
skills themselves (what openskills' `sync` does): the `<available_skills>` block between two marker
lines, rewritten in place while every other byte of the file stays as it was (its line endings,
a byte-order mark, a last line without a newline).

The markers are whole lines; a file without them gets the block appended. Two start markers, two
end markers, or one without the other are refused with the line to look at: guessing which text
is ours could delete the user's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studio.errors import StudioError

START = "<!-- studio:skills -->"
END = "<!-- /studio:skills -->"
USAGE = ("When a task matches a skill's description below, read that skill's SKILL.md (its "
         "location is relative to this file's folder) and follow it.")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_BOM = "\ufeff"


class MarkerError(StudioError):
    """The markers of the skills block cannot be trusted; `line` is where to look (1-based) and
    `reason` what is wrong there and what to do."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    start: int
    end: int
    text: str


def block_lines(catalog_xml: str) -> list[str]:
    """The lines between the markers: what the block says to the agent, then the catalog."""
    return [USAGE, "", *catalog_xml.splitlines()]


def splice_skills_block(original: bytes | None, catalog_xml: str) -> bytes:
    """`original` (None: no file yet) with the block between its markers made `catalog_xml`, or
    the block appended when it has no markers. Raises MarkerError for markers out of order, twice
    or alone, and UnicodeDecodeError for a file that is not UTF-8."""
    lines = block_lines(catalog_xml)
    if not original:
        return "\n".join([START, *lines, END, ""]).encode("utf-8")
    text = original.decode("utf-8")
    newline = "\r\n" if (first := text.find("\n")) > 0 and text[first - 1] == "\r" else "\n"
    parsed = [_Line(number, match.start(), match.end(), match.group())
              for number, match in enumerate(_LINE.finditer(text), start=1)]
    starts = [line for line in parsed if _is(line, START)]
    ends = [line for line in parsed if _is(line, END)]
    _check(starts, ends)
    body = newline.join(lines) + newline
    if not starts:
        ending = "" if text.endswith("\n") else newline
        gap = "" if text.endswith(("\n\n", "\r\n\r\n")) else newline
        return (text + ending + gap + START + newline + body + END + newline).encode("utf-8")
    return (text[:starts[0].end] + body + text[ends[0].start:]).encode("utf-8")


def _is(line: _Line, marker: str) -> bool:
    return line.text.strip().removeprefix(_BOM).strip() == marker


def _check(starts: list[_Line], ends: list[_Line]) -> None:
    for found, marker in ((starts, START), (ends, END)):
        if len(found) > 1:
            raise MarkerError(found[1].number, f"a second {marker} (the first is on line "
                              f"{found[0].number}); keep one pair of markers and delete the other")
    if starts and not ends:
        raise MarkerError(starts[0].number, f"{START} has no {END} after it; add the end marker "
                          "where the skills block ends, or delete this line")
    if ends and not starts:
        raise MarkerError(ends[0].number, f"{END} has no {START} before it; add the start marker "
                          "where the skills block begins, or delete this line")
    if starts and ends[0].number < starts[0].number:
        raise MarkerError(ends[0].number, f"{END} comes before {START} (line {starts[0].number}); "
                          "put the start marker first")


__all__ = ["END", "START", "MarkerError", "block_lines", "splice_skills_block"]

"""Fuzzy matching for Quick Open and the command palette, fast enough per keystroke at 10,000
entries on the GUI thread.

Each entry is a name and a hint (a skill's repository folder, an action's menu). A query matches
an entry when each of its words appears in order, not necessarily together, in the entry's name
and hint (`pdfx` matches `pdf-extract`). Finding the entries that match is one pass of a regular
expression over all of them joined into one text (in C, not a Python loop per entry), and a
query that extends the last one searches only the last one's matches. Only the matches are
ranked: those holding more of the query's words whole first; then by its first word, the name
equal to it, then starting with it, then holding it at a word's start, then anywhere, then its
letters spread over the name, then the hint holding it, then matched only with the help of the
hint; shorter names first within each.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from heapq import nsmallest
from typing import NamedTuple

# The most rows a list shows: ranking more than this would only be thrown away.
MOST_SHOWN = 200
# Characters that start a word inside a name (`pdf-extract`, `git_tools`, `Open Model File`).
WORD_STARTS = " -_./:▸"


class Match(NamedTuple):
    """What a search found: the rows of the best entries, best first, and how many matched."""

    rows: list[int]
    matched: int


def _pattern(word: str, start: str = "\n") -> re.Pattern[str]:
    """Matches from `start` (a line's start) to the first place the word's letters have all
    appeared in order within the line. Each gap takes, and never gives back, only characters
    other than the next letter: the first place each letter can go is found without
    backtracking."""
    parts = [f"[^\\n{re.escape(letter)}]*+{re.escape(letter)}" for letter in word]
    return re.compile(start + "".join(parts))


class Matcher:
    """The entries one list searches, and the last search, to narrow it as the query grows.

    Attributes:
        names: each entry's name, casefolded (the rank looks at it).
    """

    def __init__(self, names: Sequence[str], hints: Sequence[str]) -> None:
        self.names = [name.casefold() for name in names]
        self._sizes = [len(name) for name in self.names]
        lines = [f"{name}\t{hint.casefold()}".replace("\n", " ")
                 for name, hint in zip(self.names, hints, strict=True)]
        # Each line after a newline, so one search finds the lines that match (`_pattern`).
        self._text = "\n" + "\n".join(lines)
        self._starts: list[int] = []
        offset = 0
        for line in lines:
            self._starts.append(offset)
            offset += len(line) + 1
        self._lines = lines
        self._last: tuple[str, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.names)

    def search(self, query: str, most: int = MOST_SHOWN) -> Match:
        """The `most` best entries for `query` (every entry, in order, for an empty one)."""
        words = query.casefold().split()
        if not words:
            self._last = None
            return Match(list(range(min(most, len(self.names)))), len(self.names))
        found = self._matching(words)
        self._last = (" ".join(words), found)
        return Match(self._best(found, words, most), len(found))

    def _matching(self, words: list[str]) -> list[int]:
        key = " ".join(words)
        last = self._last
        if last is not None and key.startswith(last[0]):
            # The query grew: every word must still match, so only the last matches can.
            patterns = [_pattern(word, "") for word in words]
            lines = self._lines
            return [row for row in last[1]
                    if all(pattern.match(lines[row]) for pattern in patterns)]
        first, *rest = [_pattern(word) for word in words]
        starts = self._starts
        rows = [bisect_right(starts, found.start()) - 1 for found in first.finditer(self._text)]
        if rest:
            patterns = [_pattern(word, "") for word in words[1:]]
            rows = [row for row in rows
                    if all(pattern.match(self._lines[row]) for pattern in patterns)]
        return rows

    def _best(self, rows: list[int], words: list[str], most: int) -> list[int]:
        """The `most` best of `rows`: those holding more of the words whole (`pdf ali` in
        `pdf`, `alice--tools`) first, then tier by tier (see the module's docstring)."""
        if len(words) == 1:
            return self._ranked(rows, words, most)
        lines = self._lines
        by_misses: dict[int, list[int]] = {}
        for row in rows:
            by_misses.setdefault(sum(word not in lines[row] for word in words), []).append(row)
        best: list[int] = []
        for misses in sorted(by_misses):
            best.extend(self._ranked(by_misses[misses], words, most - len(best)))
            if len(best) >= most:
                break
        return best

    def _ranked(self, rows: list[int], words: list[str], most: int) -> list[int]:
        """The `most` best of `rows` by the first word, tier by tier; a tier is ranked only
        while the ones above it leave room."""
        names, sizes, word = self.names, self._sizes, words[0]
        best: list[int] = []
        places = {row: names[row].find(word) for row in rows}
        within = [row for row in rows if places[row] >= 0]
        tiers = [
            [row for row in within if places[row] == 0],
            [row for row in within if places[row] > 0
             and names[row][places[row] - 1] in WORD_STARTS],
            [row for row in within if places[row] > 0
             and names[row][places[row] - 1] not in WORD_STARTS],
        ]
        for tier in tiers:
            if len(best) >= most:
                return best
            best.extend(nsmallest(most - len(best), tier, key=lambda row: (places[row], sizes[row])))
        if len(best) >= most or len(within) == len(rows):
            return best
        spread = _pattern("".join(words), "")
        rest = [row for row in rows if places[row] < 0]
        in_name = {row for row in rest if spread.match(names[row])}
        in_hint = {row for row in rest if row not in in_name and word in self._lines[row]}
        for tier in ([row for row in rest if row in in_name], [row for row in rest if row in in_hint],
                     [row for row in rest if row not in in_name and row not in in_hint]):
            best.extend(nsmallest(most - len(best), tier, key=sizes.__getitem__))
            if len(best) >= most:
                break
        return best

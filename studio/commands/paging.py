"""Paging the commands that list skills (`studio list`, `studio catalog`): `--limit N` rows from
`--offset N`, rows printed as they are made, and JSON Lines (one object a line) for a reader that
takes a page at a time. A page that stops at its limit while more follow says, on stderr, the
`--offset` of the next one; a page shorter than its limit is the last. docs/cli.md describes it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

from studio.commands.arguments import positive
from studio.textshow import shown_json

T = TypeVar("T")


def not_negative(text: str) -> int:
    """A whole number of 0 or more (`--offset`)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("it must be 0 or more")
    return value


def add_paging_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=positive, metavar="N",
                        help="print at most N skills (a page); stderr then gives the next "
                        "page's --offset")
    parser.add_argument("--offset", type=not_negative, default=0, metavar="N",
                        help="skip the first N skills (the next page of --limit)")


class Page(Iterator[T]):
    """The rows of `rows` from `offset`, at most `limit` of them (None: all), taken one at a
    time; `more` says, once they are taken, whether rows follow the page. With `skip` False,
    `rows` starts at `offset` already (its maker skipped the rows before more cheaply)."""

    def __init__(self, rows: Iterable[T], offset: int, limit: int | None,
                 skip: bool = True) -> None:
        self._rows = iter(rows)
        self.offset = offset
        self.limit = limit
        self.taken = 0
        self.more = False
        self._done = False
        # Skipped without keeping them: a later page costs the reading of the ones before it,
        # not the memory.
        for _ in islice(self._rows, offset if skip else 0):
            pass

    def __next__(self) -> T:
        if self._done:
            raise StopIteration
        if self.limit is not None and self.taken >= self.limit:
            self._done = True
            self.more = next(self._rows, _END) is not _END
            raise StopIteration
        row = next(self._rows, _END)
        if row is _END:
            self._done = True
            raise StopIteration
        self.taken += 1
        return row  # type: ignore[return-value]

    def note(self, command: str) -> None:
        """Tell, on stderr, where the next page starts, if one does."""
        if self.more:
            start = self.offset + self.taken
            print(f"{command}: {self.taken:,} shown from {self.offset:,}; more follow: add "
                  f"--offset {start} for the next page", file=sys.stderr)


_END = object()


def print_json_line(value: Any) -> None:
    """One object on one line (JSON Lines), shown as `shown_json` shows JSON."""
    print(shown_json(json.dumps(value, ensure_ascii=False, separators=(",", ":"))))


def print_json_array(values: Iterable[Any]) -> None:
    """A JSON array written an element at a time, as `json.dumps(list(values), indent=2)`
    writes it, never holding the whole text."""
    first = True
    for value in values:
        text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        print(("[\n  " if first else ",\n  ") + shown_json(text), end="")
        first = False
    print("[]" if first else "\n]")


__all__ = ["Page", "add_paging_arguments", "not_negative", "print_json_array", "print_json_line"]

"""The columns of a table file the user's message names, as the values of a placeholder that
takes a column ("COLUMN is the header name of the column").

A script that sums or sorts a column of a CSV file takes one of the names in the file's header
row; a model offered the message's words gives it the file's path again, or "total". The header
is read from the file (its first line; the file is never run), when the message names a CSV or
TSV file the skill's folder holds, where the script runs.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable

from studio.agent.guided.arguments import affinity

_COLUMN_WORDS = frozenset({"column", "columns", "col", "header", "headers", "heading"})
_TABLE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.(?:csv|tsv))(?![\w/-])", re.IGNORECASE)
_MIN_COLUMNS = 2
_MAX_COLUMNS = 80
_HEADER_CHARS = 4000


def column_values(name: str, said: str, request: str,
                  read: Callable[[str], str | None]) -> tuple[str, ...]:
    """The header names of the first CSV or TSV file `request` names that `read` gives (None
    when it cannot be read), when the placeholder `name` takes a column: its name or what the
    skill says of it (`said`) speaks of a column or a header, and the file is not of its kind;
    else empty."""
    words = set(name.lower().split("_")) | set(re.findall(r"[a-z]+", said.lower()))
    if not words & _COLUMN_WORDS:
        return ()
    for path in dict.fromkeys(_TABLE.findall(request)):
        if affinity(name, path):
            # The placeholder the file fits (CSV, FILE) is the file, whatever its sentence says.
            return ()
        text = read(path.removeprefix("./"))
        if not text:
            continue
        line = text[:_HEADER_CHARS].splitlines()[0] if text.strip() else ""
        delimiter = "\t" if path.lower().endswith(".tsv") or "\t" in line else ","
        cells = [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter), [])]
        # A header cell is a value the script is given: never one that would be an option.
        found = tuple(dict.fromkeys(cell for cell in cells if cell and not cell.startswith("-")))
        if _MIN_COLUMNS <= len(found) <= _MAX_COLUMNS:
            return found
    return ()

#!/usr/bin/env python3
"""Profile a CSV file: column types, nulls, distinct values, min/max, mean and top values.

Writes the report to stdout, or to the file given with --output; it never changes the CSV.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import re
import sys
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

NULLS = {"", "na", "n/a", "nan", "null", "none", "nil", "-", "#n/a"}
TRUE_WORDS = {"true", "yes", "y", "t"}
FALSE_WORDS = {"false", "no", "n", "f"}
DELIMITERS = {"comma": ",", "semicolon": ";", "tab": "\t", "pipe": "|"}
INTEGER = re.compile(r"[+-]?\d+")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?")
SNIFF_CHARS = 64 * 1024


class InputError(Exception):
    """The CSV cannot be read; the message says why and what to try."""


def parse_float(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return None if math.isinf(number) or math.isnan(number) else number


def parse_bool(value: str) -> str | None:
    lowered = value.lower()
    if lowered in TRUE_WORDS:
        return "true"
    if lowered in FALSE_WORDS:
        return "false"
    return None


def parse_date(value: str) -> date | None:
    if not DATE.fullmatch(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def parse_datetime(value: str) -> datetime | None:
    if not DATETIME.fullmatch(value):
        return None
    try:
        return datetime.fromisoformat(value.replace(" ", "T", 1))
    except ValueError:
        return None


def parse_integer(value: str) -> int | None:
    return int(value) if INTEGER.fullmatch(value) else None


# Order matters: the first kind that every value fits names the column.
KINDS: list[tuple[str, Callable[[str], Any]]] = [
    ("integer", parse_integer),
    ("float", parse_float),
    ("boolean", parse_bool),
    ("date", parse_date),
    ("datetime", parse_datetime),
]


def infer(values: list[str]) -> tuple[str, list[Any]]:
    for kind, parse in KINDS:
        parsed = []
        for value in values:
            result = parse(value)
            if result is None:
                break
            parsed.append(result)
        else:
            if values:
                return kind, parsed
    return "text", list(values)


def column_names(header: list[str]) -> list[str]:
    names: list[str] = []
    seen: Counter = Counter()
    for index, raw in enumerate(header, start=1):
        name = raw.strip() or f"column_{index}"
        seen[name] += 1
        names.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return names


def pick_delimiter(sample: str, requested: str | None) -> str:
    if requested:
        delimiter = DELIMITERS.get(requested, requested)
        if len(delimiter) != 1:
            raise InputError(
                f"--delimiter must be one character or one of {', '.join(DELIMITERS)}; "
                f"got {requested!r}"
            )
        return delimiter
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def read_text(path: str, encoding: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, newline="", encoding=encoding) as handle:
            return handle.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a CSV file") from None
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}; try utf-8, cp1252 or latin-1") from None
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path}: not valid {encoding} (byte {exc.start}); "
            "try --encoding cp1252 or --encoding latin-1"
        ) from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None


def read_rows(path: str, encoding: str, delimiter: str | None, max_rows: int | None
              ) -> tuple[list[str], list[list[str]], list[int], bool]:
    """Return header, data rows, line numbers of ragged rows and whether the read was cut short."""
    text = read_text(path, encoding).lstrip("\ufeff")
    if not text.strip():
        raise InputError(f"{path}: the file is empty; there is nothing to profile")
    separator = pick_delimiter(text[:SNIFF_CHARS], delimiter)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        header = next(reader)
        rows: list[list[str]] = []
        ragged: list[int] = []
        truncated = False
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if max_rows is not None and len(rows) >= max_rows:
                truncated = True
                break
            if len(row) != len(header):
                ragged.append(reader.line_num)
            rows.append(row)
    except csv.Error as exc:
        raise InputError(f"{path}, line {reader.line_num}: cannot parse CSV: {exc}") from None
    return header, rows, ragged, truncated


def describe(value: Any) -> Any:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 4)
    return value


def profile_column(name: str, cells: list[str], top: int) -> dict[str, Any]:
    total = len(cells)
    present = [cell.strip() for cell in cells if cell.strip().lower() not in NULLS]
    kind, parsed = infer(present)
    stats: dict[str, Any] = {
        "name": name,
        "type": kind if present else "empty",
        "count": len(present),
        "nulls": total - len(present),
        "null_percent": round(100 * (total - len(present)) / total, 1) if total else 0.0,
        "distinct": len(set(present)),
    }
    if parsed:
        stats["min"] = describe(min(parsed))
        stats["max"] = describe(max(parsed))
    if kind in ("integer", "float") and parsed:
        stats["mean"] = round(sum(parsed) / len(parsed), 4)
    if kind == "text" and present:
        lengths = [len(value) for value in present]
        stats["text_length"] = {"min": min(lengths), "max": max(lengths)}
    stats["top"] = [[value, count] for value, count in Counter(present).most_common(top)]
    return stats


def profile(path: str, encoding: str, delimiter: str | None, top: int,
            max_rows: int | None) -> dict[str, Any]:
    header, rows, ragged, truncated = read_rows(path, encoding, delimiter, max_rows)
    names = column_names(header)
    columns = []
    for index, name in enumerate(names):
        cells = [row[index] if index < len(row) else "" for row in rows]
        columns.append(profile_column(name, cells, top))
    return {
        "file": path,
        "rows": len(rows),
        "sampled": truncated,
        "columns": columns,
        "ragged_rows": len(ragged),
        "ragged_lines": ragged[:5],
    }


def render_text(report: dict[str, Any]) -> str:
    lines = [
        f"File: {report['file']}",
        f"Rows: {report['rows']}" + (" (sample: --max-rows reached)" if report["sampled"] else ""),
        f"Columns: {len(report['columns'])}",
    ]
    if report["ragged_rows"]:
        shown = ", ".join(str(number) for number in report["ragged_lines"])
        lines.append(f"Ragged rows: {report['ragged_rows']} (first at lines {shown})")
    for column in report["columns"]:
        lines.append("")
        lines.append(f"## {column['name']} ({column['type']})")
        lines.append(
            f"  count {column['count']}, nulls {column['nulls']} ({column['null_percent']}%), "
            f"distinct {column['distinct']}"
        )
        if "min" in column:
            lines.append(f"  min {column['min']}, max {column['max']}")
        if "mean" in column:
            lines.append(f"  mean {column['mean']}")
        if "text_length" in column:
            length = column["text_length"]
            lines.append(f"  text length {length['min']}..{length['max']}")
        if column["top"]:
            shown = ", ".join(f"{value!r} x{count}" for value, count in column["top"])
            lines.append(f"  top: {shown}")
    return "\n".join(lines) + "\n"


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Profile a CSV file: per-column type, nulls, distinct count, min/max, mean "
                    "and most frequent values.",
        epilog="Exit status: 0 report written, 2 the CSV or an option could not be used.",
    )
    parser.add_argument("csv", metavar="CSV", help="the CSV file to profile, or - for stdin")
    parser.add_argument("--delimiter", help="one character, or comma, semicolon, tab, pipe "
                                            "(default: detected)")
    parser.add_argument("--encoding", default="utf-8", help="text encoding (default: utf-8)")
    parser.add_argument("--top", type=positive_int, default=5,
                        help="how many frequent values to list per column (default: 5)")
    parser.add_argument("--max-rows", type=positive_int, metavar="N",
                        help="profile only the first N data rows")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default: text)")
    parser.add_argument("--output", metavar="PATH",
                        help="write the report to PATH instead of stdout")
    args = parser.parse_args(argv)

    try:
        report = profile(args.csv, args.encoding, args.delimiter, args.top, args.max_rows)
    except InputError as exc:
        print(f"profile_csv: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(report, indent=2) + "\n" if args.format == "json" else render_text(report)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    output_exists = os.path.exists(args.output)
    if args.csv != "-" and output_exists and os.path.samefile(args.output, args.csv):
        print("profile_csv: --output is the input file; pick another path", file=sys.stderr)
        return 2
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        print(f"profile_csv: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"profile_csv: report written to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
import argparse
import csv
import sys

parser = argparse.ArgumentParser(prog="filter.py")
parser.add_argument("csv")
parser.add_argument("conditions", nargs="+", metavar="COLUMN=VALUE")
parser.add_argument("--sum", default="total_eur")
args = parser.parse_args()

try:
    with open(args.csv, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
except OSError as exc:
    sys.exit(f"filter.py: cannot read {args.csv}: {exc.strerror}")
columns = list(rows[0]) if rows else []
wanted = []
for cond in args.conditions:
    col, sep, value = cond.partition("=")
    if not sep:
        parser.error(f"{cond!r} is not COLUMN=VALUE")
    if col not in columns:
        sys.exit(f"filter.py: no column {col!r}; columns: {', '.join(columns)}")
    wanted.append((col, value))
if args.sum not in columns:
    sys.exit(f"filter.py: no column {args.sum!r} to sum")
hits = [r for r in rows if all(r[c] == v for c, v in wanted)]
total = sum(float(r[args.sum]) for r in hits)
print(f"{len(hits)} of {len(rows)} rows match; {args.sum} total {total:.2f}")

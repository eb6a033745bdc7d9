#!/usr/bin/env python3
import argparse
import csv
import sys

parser = argparse.ArgumentParser(description="Row with the largest value in a column.")
parser.add_argument("file")
parser.add_argument("--by", required=True, metavar="COLUMN")
parser.add_argument("--smallest", action="store_true")
args = parser.parse_args()
try:
    with open(args.file, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
except OSError as err:
    sys.exit(f"error: cannot read {args.file}: {err.strerror}")
if not rows:
    sys.exit(f"error: {args.file} has no data rows")
if args.by not in rows[0]:
    sys.exit(f"error: no column {args.by!r} in {args.file}; columns: {', '.join(rows[0])}")
try:
    pick = (min if args.smallest else max)(rows, key=lambda r: float(r[args.by]))
except ValueError:
    sys.exit(f"error: column {args.by!r} is not numeric")
print(", ".join(f"{k}={v}" for k, v in pick.items()))

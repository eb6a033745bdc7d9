#!/usr/bin/env python3
import csv, sys
path, column = sys.argv[1:3]
rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
if rows and column not in rows[0]:
    sys.exit(f"no column {column!r}; columns: {', '.join(rows[0])}")
print(f"sum of {column} over {len(rows)} rows: {sum(float(r[column]) for r in rows):g}")

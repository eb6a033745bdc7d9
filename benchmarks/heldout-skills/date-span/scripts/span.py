#!/usr/bin/env python3
"""Days, weeks and working days from START up to END (YYYY-MM-DD)."""

import datetime
import sys

if len(sys.argv) != 3:
    print("usage: span.py START END (dates as YYYY-MM-DD)", file=sys.stderr)
    sys.exit(2)
try:
    start, end = (datetime.date.fromisoformat(value) for value in sys.argv[1:])
except ValueError as exc:
    print(f"not a date in YYYY-MM-DD form: {exc}", file=sys.stderr)
    sys.exit(2)
days = (end - start).days
step = 1 if days >= 0 else -1
working = sum(1 for n in range(0, days, step)
              if (start + datetime.timedelta(days=n)).weekday() < 5)
print(f"{start} to {end}: {days} days ({abs(days) // 7} weeks), {working} working days")

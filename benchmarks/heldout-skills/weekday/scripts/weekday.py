#!/usr/bin/env python3
"""Prints the weekday of an ISO date (YYYY-MM-DD)."""

import datetime
import sys

if len(sys.argv) != 2:
    print("usage: weekday.py DATE (YYYY-MM-DD)", file=sys.stderr)
    sys.exit(2)
try:
    day = datetime.date.fromisoformat(sys.argv[1])
except ValueError:
    print(f"not a date in YYYY-MM-DD form: {sys.argv[1]!r}", file=sys.stderr)
    sys.exit(2)
print(f"{day.isoformat()} was a {day.strftime('%A')}")

#!/usr/bin/env python3
import math
import sys
from datetime import datetime, timezone

SYNODIC = 29.530588853
EPOCH = datetime(2000, 1, 6, 18, 14, tzinfo=timezone.utc)
NAMES = ["new moon", "waxing crescent", "first quarter", "waxing gibbous",
         "full moon", "waning gibbous", "last quarter", "waning crescent"]

if len(sys.argv) != 2:
    sys.exit("usage: moon.py YYYY-MM-DD")
try:
    day = datetime.strptime(sys.argv[1], "%Y-%m-%d").replace(hour=12, tzinfo=timezone.utc)
except ValueError:
    sys.exit(f"moon.py: {sys.argv[1]!r} is not a date in YYYY-MM-DD form (e.g. 2026-07-04)")
age = ((day - EPOCH).total_seconds() / 86400) % SYNODIC
lit = (1 - math.cos(2 * math.pi * age / SYNODIC)) / 2
name = NAMES[int((age / SYNODIC) * 8 + 0.5) % 8]
print(f"{day:%Y-%m-%d}: {name}, age {age:.1f} days, {lit * 100:.0f}% illuminated")

#!/usr/bin/env python3
import datetime
import sys

if len(sys.argv) != 2:
    sys.exit("usage: doy.py YYYY-MM-DD")
try:
    day = datetime.date.fromisoformat(sys.argv[1])
except ValueError:
    sys.exit(f"doy.py: {sys.argv[1]!r} is not a date in the form YYYY-MM-DD")
if day.year < 1583:
    sys.exit("doy.py: only Gregorian dates (1583 and later)")
n = day.timetuple().tm_yday
length = 366 if (day.year % 4 == 0 and day.year % 100 != 0) or day.year % 400 == 0 else 365
kind = "leap year" if length == 366 else "common year"
print(f"{day.isoformat()} is day {n} of {length} ({kind}); {length - n} days left")

#!/usr/bin/env python3
import argparse
import datetime

parser = argparse.ArgumentParser(prog="workdays.py")
parser.add_argument("start")
parser.add_argument("end")
parser.add_argument("--holidays", metavar="FILE")
args = parser.parse_args()

try:
    start = datetime.date.fromisoformat(args.start)
    end = datetime.date.fromisoformat(args.end)
except ValueError as exc:
    parser.error(f"dates must be YYYY-MM-DD ({exc})")
if end < start:
    parser.error(f"END {end} is before START {start}")
holidays = {}
if args.holidays:
    try:
        with open(args.holidays, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if line and not line.startswith("#"):
                    day, _, name = line.partition(" ")
                    holidays[datetime.date.fromisoformat(day)] = name.strip()
    except OSError as exc:
        parser.error(f"cannot read holidays file: {exc.strerror}: {args.holidays}")
count, weekend, skipped = 0, 0, []
day = start
while day <= end:
    if day.weekday() >= 5:
        weekend += 1
    elif day in holidays:
        skipped.append(f"{day} {holidays[day]}")
    else:
        count += 1
    day += datetime.timedelta(days=1)
print(f"{start} to {end}: {count} working days")
print(f"  {(end - start).days + 1} calendar days, {weekend} weekend days, {len(skipped)} holidays")
for item in skipped:
    print(f"  holiday: {item}")

#!/usr/bin/env python3
"""Next run times of a five-field cron schedule."""
import argparse
from datetime import datetime, timedelta

FIELDS = [("minute", 0, 59), ("hour", 0, 23), ("day of month", 1, 31), ("month", 1, 12),
          ("day of week", 0, 7)]


def parse_field(text, name, low, high):
    values = set()
    for part in text.split(","):
        base, _, step_text = part.partition("/")
        step = int(step_text) if step_text.isdigit() and int(step_text) > 0 else None
        if step_text and step is None:
            raise ValueError(f"bad step in {name} field {text!r}")
        if base == "*":
            start, end = low, high
        elif "-" in base:
            a, _, b = base.partition("-")
            if not (a.isdigit() and b.isdigit()):
                raise ValueError(f"bad range in {name} field {text!r}")
            start, end = int(a), int(b)
        elif base.isdigit():
            start = end = int(base)
            if step:
                end = high
        else:
            raise ValueError(f"{name} field {text!r} is not a number, range, list, step or *")
        if not low <= start <= end <= high:
            raise ValueError(f"{name} field {text!r} is outside {low}-{high}")
        values.update(range(start, end + 1, step or 1))
    return values


def parse(expression):
    parts = expression.split()
    if len(parts) != 5:
        raise ValueError(f"{expression!r} has {len(parts)} fields; a cron schedule has 5 "
                         "(minute hour day-of-month month day-of-week), quoted as one argument")
    sets = [parse_field(p, *spec) for p, spec in zip(parts, FIELDS)]
    if 7 in sets[4]:
        sets[4].add(0)
    return sets, parts[2] != "*", parts[4] != "*"


def day_matches(day, sets, dom_restricted, dow_restricted):
    dom = day.day in sets[2]
    dow = (day.isoweekday() % 7) in sets[4]
    if day.month not in sets[3]:
        return False
    if dom_restricted and dow_restricted:
        return dom or dow
    return dom and dow


parser = argparse.ArgumentParser(
    prog="cronnext.py",
    description="Print the next run times of a cron schedule after a given moment.",
    epilog='example: cronnext.py "0 9 * * 1-5" --after "2026-01-02 17:30" -n 3')
parser.add_argument("schedule", help='the five cron fields, quoted as ONE argument, e.g. "*/15 * * * *"')
parser.add_argument("--after", required=True, metavar='"YYYY-MM-DD HH:MM"',
                    help="list runs strictly after this moment (24-hour clock)")
parser.add_argument("-n", type=int, default=1, metavar="COUNT", help="how many runs to list (default 1, max 50)")
args = parser.parse_args()
try:
    sets, dom_r, dow_r = parse(args.schedule)
except ValueError as exc:
    parser.error(str(exc))
try:
    moment = datetime.strptime(args.after, "%Y-%m-%d %H:%M")
except ValueError:
    parser.error(f'--after {args.after!r} is not "YYYY-MM-DD HH:MM"')
if not 1 <= args.n <= 50:
    parser.error("-n must be between 1 and 50")

found = []
day = moment.replace(hour=0, minute=0)
for _ in range(366 * 5):
    if day_matches(day, sets, dom_r, dow_r):
        for hour in sorted(sets[1]):
            for minute in sorted(sets[0]):
                run = day.replace(hour=hour, minute=minute)
                if run > moment and len(found) < args.n:
                    found.append(run)
    if len(found) == args.n:
        break
    day += timedelta(days=1)
if not found:
    parser.error("the schedule never fires in the next five years")
for run in found:
    print(f"{run:%Y-%m-%d %H:%M} ({run:%A})")

#!/usr/bin/env python3
import argparse
import datetime


def iso_date(text):
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date in YYYY-MM-DD form") from None


parser = argparse.ArgumentParser(description="Add days to a date.")
parser.add_argument("--start", type=iso_date, required=True, help="YYYY-MM-DD")
parser.add_argument("--days", type=int, required=True, help="days to add (negative: back)")
parser.add_argument("--business", action="store_true", help="count working days only")
args = parser.parse_args()
day = args.start
if args.business:
    step = 1 if args.days >= 0 else -1
    left = abs(args.days)
    while left:
        day += datetime.timedelta(days=step)
        if day.weekday() < 5:
            left -= 1
else:
    day += datetime.timedelta(days=args.days)
print(f"{day.isoformat()} ({day.strftime('%A')})")

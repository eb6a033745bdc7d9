#!/usr/bin/env python3
import argparse
from datetime import date

parser = argparse.ArgumentParser(description="Fiscal quarter of a date.")
parser.add_argument("date", help="YYYY-MM-DD")
parser.add_argument("--start-month", default="1", help="month the fiscal year starts, 1-12")
args = parser.parse_args()

try:
    day = date.fromisoformat(args.date)
except ValueError:
    parser.error(f"DATE {args.date!r} is not YYYY-MM-DD")
if not args.start_month.isdigit() or not 1 <= int(args.start_month) <= 12:
    parser.error(f"--start-month {args.start_month!r} must be a month number from 1 to 12")
start = int(args.start_month)
offset = (day.month - start) % 12
quarter = offset // 3 + 1
year = day.year if start == 1 else (day.year + 1 if day.month >= start else day.year)
first = day.year if day.month >= start else day.year - 1
print(f"{day.isoformat()} is in Q{quarter} of FY{year} "
      f"(fiscal year starting {date(first, start, 1):%B %Y})")

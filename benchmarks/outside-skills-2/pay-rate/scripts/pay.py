#!/usr/bin/env python3
import argparse

WEEKS = 52


def amount(text):
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a plain number; write it without currency signs or thousands "
            "separators, e.g. 52000") from None


parser = argparse.ArgumentParser(description="Annual salary <-> hourly rate.")
sub = parser.add_subparsers(dest="command", required=True)
hourly = sub.add_parser("hourly", help="hourly rate from an annual salary")
hourly.add_argument("--salary", type=amount, required=True)
hourly.add_argument("--hours", type=amount, default=40.0, help="hours per week (default 40)")
annual = sub.add_parser("annual", help="annual salary from an hourly rate")
annual.add_argument("--rate", type=amount, required=True)
annual.add_argument("--hours", type=amount, default=40.0, help="hours per week (default 40)")
args = parser.parse_args()
if not 0 < args.hours <= 100:
    parser.error("--hours must be between 0 and 100 hours a week")
if args.command == "hourly" and args.salary < 1000:
    parser.error(f"a salary of {args.salary:g} a year looks like an hourly rate; "
                 f"for that use: pay.py annual --rate {args.salary:g}")
if args.command == "annual" and args.rate > 1000:
    parser.error(f"an hourly rate of {args.rate:g} looks like a salary; "
                 f"for that use: pay.py hourly --salary {args.rate:g}")
if args.command == "hourly":
    print(f"{args.salary:,.2f} a year at {args.hours:g} h/week = {args.salary / (WEEKS * args.hours):.2f} an hour")
else:
    print(f"{args.rate:.2f} an hour at {args.hours:g} h/week = {args.rate * WEEKS * args.hours:,.2f} a year")

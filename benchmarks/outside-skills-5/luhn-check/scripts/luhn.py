#!/usr/bin/env python3
import argparse
import re
import sys


def luhn_sum(digits):
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10


parser = argparse.ArgumentParser(prog="luhn.py")
sub = parser.add_subparsers(dest="command", required=True)
sub.add_parser("check").add_argument("number")
sub.add_parser("digit").add_argument("partial")
args = parser.parse_args()
raw = args.number if args.command == "check" else args.partial
digits = re.sub(r"[ -]", "", raw)
if not digits.isdigit():
    parser.error(f"{raw!r} is not a number")
if args.command == "check":
    if luhn_sum(digits) == 0:
        print(f"{digits}: passes the Luhn check")
    else:
        print(f"{digits}: fails the Luhn check")
        sys.exit(1)
else:
    check = (10 - luhn_sum(digits + "0")) % 10
    print(f"check digit {check}: {digits}{check}")

#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="bday.py", description="Chance of a shared value among N picks.")
parser.add_argument("n", type=int, help="number of people (picks)")
parser.add_argument("-d", "--days", type=int, default=365, help="number of equally likely values (365)")
args = parser.parse_args()
if args.n < 0 or args.days < 1:
    parser.error("N must be 0 or more and -d at least 1")
p_distinct = 1.0
for i in range(args.n):
    p_distinct *= max(0, args.days - i) / args.days
print(f"{args.n} people, {args.days} days: {100 * (1 - p_distinct):.1f}% chance of a shared birthday")

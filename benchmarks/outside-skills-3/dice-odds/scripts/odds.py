#!/usr/bin/env python3
import argparse
from fractions import Fraction

parser = argparse.ArgumentParser(prog="odds.py")
parser.add_argument("-n", type=int, required=True, metavar="DICE")
parser.add_argument("-t", type=int, required=True, metavar="TOTAL")
parser.add_argument("-s", type=int, default=6, metavar="SIDES")
parser.add_argument("--at-least", action="store_true")
args = parser.parse_args()

if not 1 <= args.n <= 20:
    parser.error("-n must be between 1 and 20 dice")
if args.s < 2:
    parser.error("-s must be at least 2 sides")
low, high = args.n, args.n * args.s
if not low <= args.t <= high:
    parser.error(f"-t {args.t} cannot be rolled with {args.n}d{args.s} (totals run from {low} to {high})")

ways = {0: 1}
for _ in range(args.n):
    nxt = {}
    for total, count in ways.items():
        for face in range(1, args.s + 1):
            nxt[total + face] = nxt.get(total + face, 0) + count
    ways = nxt
outcomes = args.s ** args.n
hits = sum(c for t, c in ways.items() if (t >= args.t if args.at_least else t == args.t))
what = "at least" if args.at_least else "exactly"
p = Fraction(hits, outcomes)
print(f"{args.n}d{args.s}, {what} {args.t}: {hits}/{outcomes} = {float(p) * 100:.2f}%")

#!/usr/bin/env python3
import argparse

FORMULAS = {
    "epley": lambda w, r: w * (1 + r / 30) if r > 1 else w,
    "brzycki": lambda w, r: w * 36 / (37 - r),
    "lombardi": lambda w, r: w * r ** 0.10,
    "oconner": lambda w, r: w * (1 + r / 40),
}

parser = argparse.ArgumentParser(prog="orm.py", description="Estimate a one-rep max.")
parser.add_argument("--weight", type=float, required=True)
parser.add_argument("--reps", type=int, required=True)
parser.add_argument("--formula", choices=sorted(FORMULAS), default="epley")
args = parser.parse_args()
if args.weight <= 0 or not 1 <= args.reps <= 12:
    parser.error("--weight must be positive and --reps between 1 and 12")
orm = FORMULAS[args.formula](args.weight, args.reps)
print(f"estimated 1RM ({args.formula}): {orm:.1f}")
for pct in (90, 80, 70):
    print(f"  {pct}%: {round(orm * pct / 100 / 2.5) * 2.5:g}")

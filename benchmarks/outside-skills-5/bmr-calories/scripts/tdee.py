#!/usr/bin/env python3
import argparse
import sys

FACTOR = {"sedentary": 1.2, "light": 1.375, "moderate": 1.55, "active": 1.725, "athlete": 1.9}

parser = argparse.ArgumentParser(prog="tdee.py")
parser.add_argument("--sex", choices=["female", "male"], required=True)
parser.add_argument("--age", type=float, required=True, metavar="YEARS")
parser.add_argument("--weight", type=float, required=True, metavar="KG")
parser.add_argument("--height", type=float, required=True, metavar="CM")
parser.add_argument("--activity", metavar="LEVEL")
args = parser.parse_args()
if args.height < 100:
    parser.error(f"--height is in centimetres, not {args.height:g}")
bmr = 10 * args.weight + 6.25 * args.height - 5 * args.age + (5 if args.sex == "male" else -161)
print(f"BMR {bmr:.0f} kcal/day")
if args.activity:
    if args.activity not in FACTOR:
        sys.exit(f"tdee.py: unknown activity level {args.activity!r}")
    print(f"maintenance ({args.activity}, x{FACTOR[args.activity]}): {bmr * FACTOR[args.activity]:.0f} kcal/day")

#!/usr/bin/env python3
import argparse
import math
import sys

RATES = {"fescue": 35, "ryegrass": 40, "bluegrass": 15, "bermuda": 8, "zoysia": 10, "shade-mix": 35}

parser = argparse.ArgumentParser(prog="seed.py", description="Grass seed needed for an area.")
parser.add_argument("--area", type=float, required=True, help="square metres")
parser.add_argument("--grass", required=True)
parser.add_argument("--overseed", action="store_true")
args = parser.parse_args()
if args.grass not in RATES:
    sys.exit(f"seed.py: unknown grass {args.grass!r}; choose from {', '.join(RATES)}")
if args.area <= 0:
    sys.exit("seed.py: --area must be positive (square metres)")
rate = RATES[args.grass] / (2 if args.overseed else 1)
grams = math.ceil(args.area * rate / 10) * 10
amount = f"{grams / 1000:.2f} kg" if grams >= 1000 else f"{grams} g"
job = "overseeding" if args.overseed else "new lawn"
print(f"{args.grass}, {job}, {args.area:g} m² at {rate:g} g/m²: {amount} of seed")

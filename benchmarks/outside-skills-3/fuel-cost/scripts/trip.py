#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="Fuel used and its cost for a trip.")
parser.add_argument("--distance", type=float, required=True, help="kilometres")
parser.add_argument("--consumption", type=float, required=True, help="litres per 100 km")
parser.add_argument("--price", type=float, required=True, help="price per litre")
parser.add_argument("--people", type=int, default=1)
args = parser.parse_args()

if not 2.5 <= args.consumption <= 40:
    parser.error(f"--consumption {args.consumption:g} is not litres per 100 km (a car uses 2.5 to 40)")
if args.distance <= 0:
    parser.error("--distance must be a positive number of kilometres")
if args.people < 1:
    parser.error("--people must be at least 1")
litres = args.distance * args.consumption / 100
cost = litres * args.price
print(f"{litres:.2f} litres, cost {cost:.2f}")
if args.people > 1:
    print(f"per person: {cost / args.people:.2f}")

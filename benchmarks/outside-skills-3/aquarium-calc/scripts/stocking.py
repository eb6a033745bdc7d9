#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="Cautious stocking level for a volume of water.")
parser.add_argument("litres", type=float)
parser.add_argument("--planted", action="store_true")
args = parser.parse_args()
if not 5 <= args.litres <= 5000:
    parser.error(f"LITRES {args.litres:g} is outside 5 to 5000")
per_cm = 1.5 if args.planted else 2.0
print(f"{args.litres:g} L: up to {args.litres / per_cm:.0f} cm of adult fish in total")

#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="fall.py", description="Free-fall time and impact speed.")
parser.add_argument("height", type=float)
parser.add_argument("--feet", action="store_true")
parser.add_argument("--g", type=float, default=9.80665)
args = parser.parse_args()
if args.height <= 0 or args.g <= 0:
    parser.error("HEIGHT and --g must be positive")
metres = args.height * 0.3048 if args.feet else args.height
t = math.sqrt(2 * metres / args.g)
v = args.g * t
unit = "ft" if args.feet else "m"
speed = f"{v * 2.236936:.1f} mph" if args.feet else f"{v:.1f} m/s ({v * 3.6:.0f} km/h)"
print(f"fall of {args.height:g} {unit}: {t:.2f} s, impact speed {speed}")

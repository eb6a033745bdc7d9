#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="naismith.py")
parser.add_argument("distance", type=float)
parser.add_argument("ascent", type=float)
parser.add_argument("descent", type=float, nargs="?", default=0.0)
parser.add_argument("--imperial", action="store_true", help="miles and feet")
parser.add_argument("--rest", type=float, default=0.0, help="rest minutes per hour")
args = parser.parse_args()

km, up, down = args.distance, args.ascent, args.descent
if args.imperial:
    km, up, down = km * 1.609344, up * 0.3048, down * 0.3048
hours = km / 5 + up / 600
if down:
    # Langmuir: 10 minutes per 300 m of descent, added when steeper than about 12 degrees and
    # taken off between about 5 and 12 degrees; below that a descent is just walking.
    slope = down / (km * 1000) if km else 0
    if slope > 0.21:
        hours += down / 300 * 10 / 60
    elif slope > 0.09:
        hours -= down / 300 * 10 / 60
hours *= 1 + args.rest / 60
total = round(hours * 60)
print(f"{km:.1f} km, {up:.0f} m up: about {total // 60} h {total % 60:02d} min")

#!/usr/bin/env python3
import argparse
import re

CIRCUMFERENCE_MM = {
    "23-622": 2096, "25-622": 2105, "28-622": 2136, "32-622": 2155, "38-622": 2180,
    "47-584": 2090, "56-622": 2288, "50-559": 2055, "47-406": 1515, "37-349": 1282,
}

parser = argparse.ArgumentParser(description="Road speed from gearing and cadence.")
parser.add_argument("--chainring", type=int, required=True, help="front teeth")
parser.add_argument("--cog", type=int, required=True, help="rear teeth")
parser.add_argument("--cadence", type=float, required=True, help="pedal revolutions per minute")
parser.add_argument("--wheel", required=True, help="ETRTO size, e.g. 25-622")
args = parser.parse_args()

if not re.fullmatch(r"\d{2}-\d{3}", args.wheel):
    parser.error(f"--wheel {args.wheel!r} is not an ETRTO size like 25-622 (see references/WHEELS.md)")
if args.wheel not in CIRCUMFERENCE_MM:
    parser.error(f"--wheel {args.wheel}: no circumference known for this size")
for name in ("chainring", "cog"):
    if not 9 <= getattr(args, name) <= 60:
        parser.error(f"--{name} {getattr(args, name)} is not a tooth count (9 to 60)")
ratio = args.chainring / args.cog
development = ratio * CIRCUMFERENCE_MM[args.wheel] / 1000
kmh = development * args.cadence * 60 / 1000
print(f"{args.chainring}x{args.cog} on {args.wheel}: {development:.2f} m per pedal turn, "
      f"{kmh:.1f} km/h at {args.cadence:g} rpm")

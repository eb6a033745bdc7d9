#!/usr/bin/env python3
import argparse
import sys

# Runoff coefficients: the share of the rain that reaches the gutter.
RUNOFF = {
    "metal": 0.95,        # steel, aluminium, zinc sheet
    "glazed-tile": 0.90,  # glazed clay
    "clay-tile": 0.80,    # unglazed clay and concrete tiles
    "slate": 0.85,
    "shingle": 0.80,      # asphalt/bitumen shingles
    "membrane": 0.85,     # flat EPDM/PVC
    "gravel": 0.60,       # flat roof with gravel ballast
    "green": 0.40,        # planted (sedum) roof
    "thatch": 0.25,
}

parser = argparse.ArgumentParser(prog="harvest.py", description="Rainwater harvesting yield.")
parser.add_argument("--roof", type=float, required=True)
parser.add_argument("--rain", type=float, required=True)
parser.add_argument("--surface", required=True)
parser.add_argument("--first-flush", type=float, default=0.0)
args = parser.parse_args()
if args.surface not in RUNOFF:
    sys.exit(f"harvest.py: unknown surface {args.surface!r}")
if args.roof <= 0 or args.rain < 0:
    sys.exit("harvest.py: --roof must be positive and --rain 0 or more")
litres = max(0.0, args.roof * args.rain * RUNOFF[args.surface] - args.first_flush)
print(f"{args.roof:g} m² {args.surface} roof, {args.rain:g} mm: {litres:,.0f} litres "
      f"({litres / 1000:.1f} m³); a tank of about {litres * 0.05:,.0f} litres "
      f"holds 18 days' average yield")

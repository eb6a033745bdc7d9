#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="Water volume of a rectangular aquarium.")
parser.add_argument("length", type=float, help="cm")
parser.add_argument("width", type=float, help="cm")
parser.add_argument("height", type=float, help="cm")
parser.add_argument("--substrate", type=float, default=5.0, help="substrate depth, cm")
parser.add_argument("--gap", type=float, default=2.5, help="gap below the rim, cm")
args = parser.parse_args()
for name in ("length", "width", "height"):
    value = getattr(args, name)
    if not 10 <= value <= 400:
        parser.error(f"{name.upper()} {value:g} is not a tank dimension in cm (10 to 400)")
water_height = args.height - args.substrate - args.gap
if water_height <= 0:
    parser.error("the substrate and gap leave no room for water")
gross = args.length * args.width * args.height / 1000
water = args.length * args.width * water_height / 1000
print(f"tank {gross:.1f} L gross, about {water:.1f} L of water")

#!/usr/bin/env python3
import argparse
import math
from fractions import Fraction

SCENES = [(16, "bright sun on snow or sand"), (15, "full sun"), (13, "hazy sun / light overcast"),
          (11, "heavy overcast, open shade"), (8, "bright interior, floodlit stadium"),
          (5, "home interior at night"), (2, "city lights, distant"), (-99, "night landscape, moonlight")]


def shutter(text):
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a time in seconds like 1/250 or 2") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("the shutter time must be positive")
    return value


parser = argparse.ArgumentParser(prog="exposure.py", description="Exposure value (EV100).")
parser.add_argument("--aperture", type=float, required=True)
parser.add_argument("--shutter", type=shutter, required=True)
parser.add_argument("--iso", type=float, default=100)
args = parser.parse_args()
if args.aperture <= 0 or args.iso <= 0:
    parser.error("--aperture and --iso must be positive")
ev = math.log2(args.aperture ** 2 / float(args.shutter)) - math.log2(args.iso / 100)
scene = next(name for floor, name in SCENES if ev >= floor - 0.5)
print(f"f/{args.aperture:g}, {args.shutter} s, ISO {args.iso:g}: EV100 {ev:.1f} ({scene})")

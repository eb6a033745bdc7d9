#!/usr/bin/env python3
import argparse
import math

CROP = {"full-frame": 1.0, "aps-h": 1.29, "aps-c": 1.53, "aps-c-canon": 1.61,
        "four-thirds": 2.0, "one-inch": 2.72, "medium-44x33": 0.79, "phone-main": 4.8}
FF_DIAGONAL = math.hypot(36, 24)

parser = argparse.ArgumentParser(
    prog="equiv.py",
    description="Full-frame equivalent of a lens. Sensor crop factors: "
    + ", ".join(f"{k} {v:g}" for k, v in CROP.items()) + ".")
parser.add_argument("--focal", type=float, required=True, help="real focal length, mm")
parser.add_argument("--sensor", required=True, choices=list(CROP), help="sensor format")
parser.add_argument("--aperture", type=float, help="f-number, for the equivalent depth of field")
args = parser.parse_args()
if args.focal <= 0:
    parser.error("--focal must be positive")
crop = CROP[args.sensor]
equiv = args.focal * crop
angle = math.degrees(2 * math.atan(FF_DIAGONAL / (2 * equiv)))
line = f"{args.focal:g} mm on {args.sensor} (crop {crop:g}) = {equiv:.0f} mm full-frame, {angle:.1f}° diagonal"
if args.aperture:
    line += f", f/{args.aperture:g} behaves like f/{args.aperture * crop:.1f} for depth of field"
print(line)

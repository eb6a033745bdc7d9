#!/usr/bin/env python3
import argparse
import math
import re


def resolution(text):
    match = re.fullmatch(r"(\d+)x(\d+)", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 1920x1080")
    return int(match.group(1)), int(match.group(2))


parser = argparse.ArgumentParser(description="Pixel density of a screen.")
parser.add_argument("--resolution", type=resolution, required=True)
parser.add_argument("--diagonal", type=float, required=True, help="inches")
args = parser.parse_args()
if not 1 <= args.diagonal <= 120:
    parser.error(f"--diagonal={args.diagonal:g} is not a screen size in inches (1 to 120)")
width, height = args.resolution
ppi = math.hypot(width, height) / args.diagonal
print(f"{width}x{height} at {args.diagonal:g}\": {ppi:.2f} PPI, dot pitch {25.4 / ppi:.4f} mm")

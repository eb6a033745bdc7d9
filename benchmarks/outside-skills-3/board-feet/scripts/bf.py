#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="Board feet of lumber.")
parser.add_argument("thickness", type=float, help="inches")
parser.add_argument("width", type=float, help="inches")
parser.add_argument("length", type=float, help="feet")
parser.add_argument("--pieces", type=int, default=1)
args = parser.parse_args()

if not 0 < args.thickness <= 12:
    parser.error(f"THICKNESS {args.thickness:g} is not a board thickness in inches (up to 12)")
if not 0 < args.width <= 48:
    parser.error(f"WIDTH {args.width:g} is not a board width in inches (up to 48)")
if not 0 < args.length <= 40:
    parser.error(f"LENGTH {args.length:g} is in feet; boards run up to 40 ft")
if args.pieces < 1:
    parser.error("--pieces must be 1 or more")
each = args.thickness * args.width * args.length / 12
text = f"{args.thickness:g} x {args.width:g} in x {args.length:g} ft: {each:.2f} board feet"
if args.pieces > 1:
    text += f" each, {each * args.pieces:.2f} for {args.pieces} pieces"
print(text)

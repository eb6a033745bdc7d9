#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="Print size of an image at a given dpi.")
parser.add_argument("width_px", type=int)
parser.add_argument("height_px", type=int)
parser.add_argument("--dpi", type=int, default=300)
args = parser.parse_args()
if args.width_px <= 0 or args.height_px <= 0:
    parser.error("pixel sizes must be positive whole numbers")
if not 10 <= args.dpi <= 2400:
    parser.error(f"--dpi {args.dpi} is outside 10 to 2400")
w_in, h_in = args.width_px / args.dpi, args.height_px / args.dpi
print(f"{args.width_px} x {args.height_px} px at {args.dpi} dpi: "
      f"{w_in * 2.54:.1f} x {h_in * 2.54:.1f} cm ({w_in:.2f} x {h_in:.2f} in)")

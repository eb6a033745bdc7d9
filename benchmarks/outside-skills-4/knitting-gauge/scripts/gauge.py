#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="gauge.py", description="Stitches for a width from a gauge swatch.")
parser.add_argument("--stitches", type=float, required=True)
parser.add_argument("--over", type=float, required=True)
parser.add_argument("--width", type=float, required=True)
parser.add_argument("--multiple", type=int, default=1)
parser.add_argument("--plus", type=int, default=0)
args = parser.parse_args()
if min(args.stitches, args.over, args.width) <= 0 or args.multiple < 1:
    parser.error("all measures must be positive")
exact = args.stitches / args.over * args.width
count = round(exact / args.multiple) * args.multiple + args.plus
print(f"{args.stitches:g} sts per {args.over:g} -> {exact:.1f} for {args.width:g}: "
      f"cast on {count} stitches")

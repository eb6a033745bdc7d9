#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="steps.py")
parser.add_argument("steps", type=int)
parser.add_argument("--height", type=float, default=170.0, help="height in cm (default 170)")
parser.add_argument("--run", action="store_true")
args = parser.parse_args()
if args.height < 50 or args.height > 250:
    parser.error(f"--height is in centimetres, not {args.height:g}")
factor = 0.65 if args.run else 0.415
stride_m = factor * args.height / 100
km = args.steps * stride_m / 1000
print(f"{args.steps} steps x {stride_m:.2f} m stride = {km:.2f} km ({km / 1.609344:.2f} miles)")

#!/usr/bin/env python3
import argparse
import math
import re

parser = argparse.ArgumentParser(prog="ratio.py")
parser.add_argument("--ratio", help="W:H, e.g. 16:9")
side = parser.add_mutually_exclusive_group()
side.add_argument("--width", type=float)
side.add_argument("--height", type=float)
parser.add_argument("--size", help="WIDTHxHEIGHT to reduce, e.g. 1920x1080")
args = parser.parse_args()

if args.size:
    m = re.fullmatch(r"(\d+)[x×](\d+)", args.size)
    if not m:
        parser.error(f"--size must be WIDTHxHEIGHT, not {args.size!r}")
    w, h = int(m[1]), int(m[2])
    g = math.gcd(w, h)
    print(f"{w} x {h} = {w // g}:{h // g} ({w / h:.3f}:1)")
    raise SystemExit
if not args.ratio or (args.width is None and args.height is None):
    parser.error("give --ratio W:H and --width or --height (or --size WxH)")
m = re.fullmatch(r"(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)", args.ratio)
if not m:
    parser.error(f"--ratio must look like 16:9, not {args.ratio!r}")
rw, rh = float(m[1]), float(m[2])
if args.width is not None:
    w, h = args.width, round(args.width * rh / rw)
else:
    w, h = round(args.height * rw / rh), args.height
print(f"{w:g} x {h:g}")
if abs(w / h - rw / rh) > 0.001:
    print(f"note: rounded; the exact ratio is {w / h:.4f}, not {rw / rh:.4f}")

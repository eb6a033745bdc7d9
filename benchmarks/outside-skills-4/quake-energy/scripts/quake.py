#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="quake.py", description="Compare two earthquake magnitudes.")
parser.add_argument("measure", choices=["energy", "amplitude"])
parser.add_argument("m1", type=float)
parser.add_argument("m2", type=float)
args = parser.parse_args()
for m in (args.m1, args.m2):
    if not -2 <= m <= 10:
        parser.error(f"magnitude {m:g} is outside -2 to 10")
exponent = (1.5 if args.measure == "energy" else 1.0) * (args.m1 - args.m2)
ratio = 10 ** exponent
text = f"{ratio:,.1f}" if ratio >= 0.1 else f"{ratio:.4g}"
print(f"M{args.m1:g} vs M{args.m2:g}: {text} times the {args.measure}")

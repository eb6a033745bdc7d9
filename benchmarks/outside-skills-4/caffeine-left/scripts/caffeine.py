#!/usr/bin/env python3
import sys

args = sys.argv[1:]
half_life = 5.0
if "--half-life" in args:
    i = args.index("--half-life")
    try:
        half_life = float(args[i + 1])
    except (IndexError, ValueError):
        sys.exit("caffeine.py: --half-life needs a number of hours")
    del args[i:i + 2]
if len(args) != 2:
    sys.exit("usage: caffeine.py MG HOURS [--half-life H]")
try:
    mg, hours = float(args[0]), float(args[1])
except ValueError:
    sys.exit("usage: caffeine.py MG HOURS [--half-life H]")
left = mg * 0.5 ** (hours / half_life)
print(f"{mg:g} mg {hours:g} h ago -> {left:.0f} mg left (half-life {half_life:g} h)")

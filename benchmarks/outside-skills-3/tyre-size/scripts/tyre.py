#!/usr/bin/env python3
import math
import re
import sys

if len(sys.argv) != 2:
    sys.exit("usage: tyre.py WIDTH/ASPECTRRIM   e.g. tyre.py 205/55R16")
match = re.fullmatch(r"(\d{3})/(\d{2})(?:R|ZR)(\d{2}(?:\.\d)?)", sys.argv[1].upper())
if not match:
    sys.exit(f"tyre.py: {sys.argv[1]!r} is not a tyre size like 205/55R16 (one word, no load or speed rating)")
width, aspect, rim = int(match.group(1)), int(match.group(2)), float(match.group(3))
if not 125 <= width <= 355 or not 25 <= aspect <= 85 or not 12 <= rim <= 24:
    sys.exit(f"tyre.py: {sys.argv[1]} is outside passenger-car sizes")
sidewall = width * aspect / 100
diameter = rim * 25.4 + 2 * sidewall
circumference = math.pi * diameter
print(f"{sys.argv[1].upper()}: sidewall {sidewall:.1f} mm, diameter {diameter:.1f} mm, "
      f"circumference {circumference:.0f} mm, {1e6 / circumference:.0f} revs/km")

#!/usr/bin/env python3
import sys

# unit name -> knots per unit
UNITS = {"kn": 1.0, "m/s": 1.943844, "km/h": 0.539957, "mph": 0.868976}

# upper limit in knots (exclusive), force, name, sea, land
SCALE = [
    (1, 0, "calm", "sea like a mirror", "smoke rises vertically"),
    (4, 1, "light air", "ripples", "smoke drifts"),
    (7, 2, "light breeze", "small wavelets", "leaves rustle"),
    (11, 3, "gentle breeze", "large wavelets, scattered whitecaps", "flags extend"),
    (17, 4, "moderate breeze", "small waves, frequent whitecaps", "dust and paper raised"),
    (22, 5, "fresh breeze", "moderate waves, many whitecaps", "small trees sway"),
    (28, 6, "strong breeze", "large waves, spray", "umbrellas hard to use"),
    (34, 7, "near gale", "sea heaps up, foam in streaks", "whole trees in motion"),
    (41, 8, "gale", "moderately high waves, spindrift", "twigs break off trees"),
    (48, 9, "strong gale", "high waves, dense foam", "slight structural damage"),
    (56, 10, "storm", "very high waves, sea looks white", "trees uprooted"),
    (64, 11, "violent storm", "exceptionally high waves", "widespread damage"),
    (10**9, 12, "hurricane force", "air filled with foam and spray", "devastation"),
]

if len(sys.argv) != 3:
    sys.exit("usage: beaufort.py SPEED UNIT")
try:
    speed = float(sys.argv[1])
except ValueError:
    sys.exit(f"beaufort.py: SPEED must be a number, not {sys.argv[1]!r}")
unit = sys.argv[2]
if unit not in UNITS:
    sys.exit(f"beaufort.py: unknown unit {unit!r}")
knots = speed * UNITS[unit]
for limit, force, name, sea, land in SCALE:
    if knots < limit:
        break
print(f"{speed:g} {unit} = {knots:.1f} kn: force {force}, {name}")
print(f"  at sea: {sea}; on land: {land}")

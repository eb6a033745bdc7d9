#!/usr/bin/env python3
"""Weight on another world from weight on Earth."""
import sys

# surface gravity in m/s^2
GRAVITY = {
    "sun": 274.0,
    "mercury": 3.70,
    "venus": 8.87,
    "earth": 9.81,
    "luna": 1.62,
    "mars": 3.71,
    "phobos": 0.0057,
    "jupiter": 24.79,
    "io": 1.80,
    "europa": 1.31,
    "ganymede": 1.43,
    "saturn": 10.44,
    "titan": 1.35,
    "uranus": 8.87,
    "neptune": 11.15,
    "triton": 0.78,
    "pluto": 0.62,
}

if len(sys.argv) != 3:
    sys.exit("usage: planet.py EARTH_WEIGHT BODY")
try:
    weight = float(sys.argv[1])
except ValueError:
    sys.exit(f"planet.py: EARTH_WEIGHT must be a number, got {sys.argv[1]!r}")
body = sys.argv[2].lower()
if body not in GRAVITY:
    sys.exit(f"planet.py: no world called {sys.argv[2]!r} in GRAVITY")
print(f"{weight:g} on Earth weighs {weight * GRAVITY[body] / GRAVITY['earth']:.2f} on {body.capitalize()}")

#!/usr/bin/env python3
"""Sum travel emissions. Trips come as a JSON list on stdin."""
import json
import sys

FACTORS = {"car-petrol": 0.164, "car-diesel": 0.168, "car-ev": 0.047, "motorbike": 0.113,
           "bus": 0.097, "train": 0.035, "ferry": 0.019, "flight-short": 0.246, "flight-long": 0.148}

if len(sys.argv) > 1:
    sys.exit("footprint.py: the trips are read from standard input as JSON, not from arguments")
try:
    trips = json.load(sys.stdin)
except json.JSONDecodeError as exc:
    sys.exit(f"footprint.py: standard input is not valid JSON ({exc.msg})")
if isinstance(trips, dict):
    trips = [trips]
total = 0.0
for trip in trips:
    mode, km = trip.get("mode"), trip.get("km")
    if mode not in FACTORS:
        sys.exit(f"footprint.py: unknown mode {mode!r}; known modes: {', '.join(FACTORS)}")
    if not isinstance(km, (int, float)) or km < 0:
        sys.exit(f"footprint.py: trip {trip} needs \"km\" as a number")
    kg = FACTORS[mode] * km
    if mode.startswith("car") and trip.get("passengers"):
        kg /= trip["passengers"]
    total += kg
    print(f"  {mode:<13} {km:>8g} km  {kg:8.1f} kg")
print(f"total {total:.1f} kg CO2e")

#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="storm.py", description="Distance to a lightning strike.")
parser.add_argument("seconds", type=float, help="seconds from flash to thunder")
parser.add_argument("--temp", type=float, default=20.0, help="air temperature in °C (default 20)")
parser.add_argument("--miles", action="store_true", help="answer in miles")
args = parser.parse_args()
if args.seconds <= 0:
    parser.error("seconds must be more than 0")
speed = 331.3 * math.sqrt(1 + args.temp / 273.15)
metres = speed * args.seconds
if args.miles:
    print(f"about {metres / 1609.344:.2f} miles away (sound at {speed:.1f} m/s)")
else:
    print(f"about {metres / 1000:.2f} km away (sound at {speed:.1f} m/s)")
print("within 10 km: take shelter" if metres <= 10000 else "more than 10 km away")

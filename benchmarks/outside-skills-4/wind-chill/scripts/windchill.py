#!/usr/bin/env python3
import argparse
import sys

parser = argparse.ArgumentParser(prog="windchill.py", description="Wind chill index.")
parser.add_argument("--temp", type=float, required=True, help="air temperature (°C, or °F with --imperial)")
parser.add_argument("--wind", type=float, required=True, help="wind speed (km/h, or mph with --imperial)")
parser.add_argument("--imperial", action="store_true", help="°F and mph")
args = parser.parse_args()

temp, wind = args.temp, args.wind
if args.imperial:
    temp, wind = (temp - 32) * 5 / 9, wind * 1.609344
if temp > 10:
    sys.exit(f"windchill.py: wind chill is only defined at 10 °C (50 °F) or below, not {args.temp:g}")
if wind < 4.8:
    sys.exit(f"windchill.py: wind must be at least 4.8 km/h (3 mph), not {args.wind:g}")
v = wind ** 0.16
chill = 13.12 + 0.6215 * temp - 11.37 * v + 0.3965 * temp * v
if args.imperial:
    print(f"feels like {chill * 9 / 5 + 32:.1f} °F")
else:
    print(f"feels like {chill:.1f} °C")
if chill < -27:
    print("frostbite possible on exposed skin within 30 minutes")

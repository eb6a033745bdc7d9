#!/usr/bin/env python3
import argparse
import math

A, B = 17.62, 243.12

parser = argparse.ArgumentParser(prog="dewpoint.py", description="Dew point from temperature and RH.")
parser.add_argument("--temp", type=float, required=True, help="air temperature, °C")
parser.add_argument("--rh", type=float, required=True, help="relative humidity, percent (0-100)")
parser.add_argument("--fahrenheit", action="store_true")
args = parser.parse_args()
if not 0 < args.rh <= 100:
    parser.error(f"--rh must be a percentage above 0 and at most 100, not {args.rh:g}")
gamma = math.log(args.rh / 100) + A * args.temp / (B + args.temp)
dew = B * gamma / (A - gamma)
if dew < 10:
    feel = "dry"
elif dew < 16:
    feel = "comfortable"
elif dew < 21:
    feel = "humid"
else:
    feel = "oppressive"
line = f"dew point {dew:.1f} °C"
if args.fahrenheit:
    line += f" ({dew * 9 / 5 + 32:.1f} °F)"
print(f"{line}, feels {feel}")

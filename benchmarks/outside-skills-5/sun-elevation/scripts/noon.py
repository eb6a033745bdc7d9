#!/usr/bin/env python3
import argparse
import datetime
import math

parser = argparse.ArgumentParser(prog="noon.py")
parser.add_argument("--lat", type=float, required=True, help="decimal degrees, south negative")
parser.add_argument("--date", required=True, help="YYYY-MM-DD")
args = parser.parse_args()
if not -90 <= args.lat <= 90:
    parser.error("--lat must be between -90 and 90")
try:
    day = datetime.date.fromisoformat(args.date)
except ValueError:
    parser.error(f"--date must be YYYY-MM-DD, not {args.date!r}")
n = day.timetuple().tm_yday
decl = 23.44 * math.sin(math.radians(360 / 365 * (284 + n)))
elev = 90 - abs(args.lat - decl)
phi, d = math.radians(args.lat), math.radians(decl)
x = -math.tan(phi) * math.tan(d)
if x <= -1:
    hours = 24.0
elif x >= 1:
    hours = 0.0
else:
    hours = 2 * math.degrees(math.acos(x)) / 15
h, m = divmod(round(hours * 60), 60)
hemi = "N" if args.lat >= 0 else "S"
print(f"{abs(args.lat):g}°{hemi} on {day}: sun declination {decl:+.2f}°")
print(f"noon elevation {max(elev, 0):.1f}° above the horizon; day length {h} h {m:02d} min")

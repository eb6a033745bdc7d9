#!/usr/bin/env python3
import argparse

LITRES_PER_100KM = {
    "mpg-us": lambda v: 100 * 3.785411784 / (v * 1.609344),
    "mpg-uk": lambda v: 100 * 4.54609 / (v * 1.609344),
    "l100km": lambda v: v,
    "kml": lambda v: 100 / v,
}
FROM_L100 = {
    "mpg-us": lambda l: 100 * 3.785411784 / (l * 1.609344),
    "mpg-uk": lambda l: 100 * 4.54609 / (l * 1.609344),
    "l100km": lambda l: l,
    "kml": lambda l: 100 / l,
}
LABEL = {"mpg-us": "mpg (US)", "mpg-uk": "mpg (imperial)", "l100km": "L/100 km", "kml": "km/L"}

parser = argparse.ArgumentParser(
    prog="mpg.py", description="Convert a fuel economy figure between units.",
    epilog="example: mpg.py 35 --from mpg-us --to l100km")
parser.add_argument("value", type=float, help="the figure to convert")
parser.add_argument("--from", dest="src", required=True, choices=sorted(LABEL), help="unit of VALUE")
parser.add_argument("--to", dest="dst", required=True, choices=sorted(LABEL), help="unit wanted")
args = parser.parse_args()
if args.value <= 0:
    parser.error("the value must be more than 0")
result = FROM_L100[args.dst](LITRES_PER_100KM[args.src](args.value))
print(f"{args.value:g} {LABEL[args.src]} = {result:.2f} {LABEL[args.dst]}")

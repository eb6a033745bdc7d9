#!/usr/bin/env python3
import argparse
import math
import re

RHO = 0.017241  # ohm mm²/m, annealed copper at 20 °C


def diameter(n):
    return 0.127 * 92 ** ((36 - n) / 39)


parser = argparse.ArgumentParser(prog="awg.py")
parser.add_argument("size", nargs="?", help="40..1, or 1/0 to 4/0")
parser.add_argument("--mm2", type=float, help="find the AWG nearest this cross-section")
args = parser.parse_args()

if args.mm2:
    n = round(36 - 39 * math.log(math.sqrt(4 * args.mm2 / math.pi) / 0.127, 92))
    name = f"{1 - n}/0" if n < 1 else str(n)
    print(f"{args.mm2:g} mm² is closest to AWG {name} ({math.pi / 4 * diameter(n) ** 2:.2f} mm²)")
elif args.size:
    m = re.fullmatch(r"([1-4])/0", args.size)
    if m:
        n, name = 1 - int(m[1]), args.size
    elif args.size.isdigit() and 1 <= int(args.size) <= 40:
        n, name = int(args.size), args.size
    else:
        parser.error(f"{args.size!r} is not an AWG size (40..1, or 1/0, 2/0, 3/0, 4/0)")
    d = diameter(n)
    area = math.pi / 4 * d * d
    print(f"AWG {name}: diameter {d:.3f} mm, area {area:.2f} mm², {RHO / area * 1000:.3f} ohm/km")
else:
    parser.error("give a SIZE or --mm2")

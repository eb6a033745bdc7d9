#!/usr/bin/env python3
import argparse
import math

R, L_VAP = 8.314, 40660.0  # J/(mol K), J/mol

parser = argparse.ArgumentParser(prog="boil.py", description="Boiling point of water at an elevation.")
parser.add_argument("elevation", type=float)
parser.add_argument("--unit", default="m", help="m or ft (default m)")
args = parser.parse_args()
if args.unit not in ("m", "ft"):
    parser.error(f"--unit must be m or ft, not {args.unit!r}")
metres = args.elevation * 0.3048 if args.unit == "ft" else args.elevation
if not -500 <= metres <= 9000:
    parser.error(f"elevation {args.elevation:g} {args.unit} is outside -500 to 9000 m")
kpa = 101.325 * (1 - 2.25577e-5 * metres) ** 5.25588
kelvin = 1 / (1 / 373.15 - R * math.log(kpa / 101.325) / L_VAP)
celsius = kelvin - 273.15
print(f"{args.elevation:g} {args.unit}: pressure {kpa:.1f} kPa, water boils at {celsius:.1f} °C "
      f"({celsius * 9 / 5 + 32:.1f} °F)")

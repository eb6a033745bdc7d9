#!/usr/bin/env python3
import argparse
import re

PREFIX = {"": 1, "p": 1e-12, "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6}


def quantity(text):
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([pnumkM]?)", text)
    if not match:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number with an optional SI prefix (e.g. 470, 4.7k, 20m); leave out the unit")
    return float(match.group(1)) * PREFIX[match.group(2)]


def show(value, unit):
    for letter, factor in (("M", 1e6), ("k", 1e3), ("", 1), ("m", 1e-3), ("µ", 1e-6)):
        if abs(value) >= factor:
            return f"{value / factor:.4g} {letter}{unit}"
    return f"{value / 1e-9:.4g} n{unit}"


parser = argparse.ArgumentParser(prog="ohm.py", description="Ohm's law: V = I * R, P = V * I.")
commands = parser.add_subparsers(dest="find", required=True, metavar="{current,voltage,resistance,power}")
for name, needs in (("current", ("volts", "ohms")), ("voltage", ("amps", "ohms")),
                    ("resistance", ("volts", "amps")), ("power", ("volts", "amps"))):
    sub = commands.add_parser(name, help=f"find the {name} from --{needs[0]} and --{needs[1]}")
    for flag in needs:
        sub.add_argument(f"--{flag}", type=quantity, required=True)
args = parser.parse_args()

if args.find == "current":
    print(f"I = {show(args.volts / args.ohms, 'A')}  ({show(args.volts ** 2 / args.ohms, 'W')} dissipated)")
elif args.find == "voltage":
    print(f"V = {show(args.amps * args.ohms, 'V')}")
elif args.find == "resistance":
    print(f"R = {show(args.volts / args.amps, 'Ω')}")
else:
    print(f"P = {show(args.volts * args.amps, 'W')}")

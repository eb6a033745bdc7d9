#!/usr/bin/env python3
"""Gas mark -> oven temperature."""
import argparse
import sys

MARKS = {"1/4": (110, 225), "1/2": (120, 250), "1": (140, 275), "2": (150, 300), "3": (170, 325),
         "4": (180, 350), "5": (190, 375), "6": (200, 400), "7": (220, 425), "8": (230, 450),
         "9": (240, 475)}
ALIASES = {"0.25": "1/4", "0.5": "1/2", "¼": "1/4", "½": "1/2"}

parser = argparse.ArgumentParser(prog="gasmark.py")
parser.add_argument("mark")
parser.add_argument("-f", dest="fahrenheit", action="store_true", help="answer in °F")
parser.add_argument("--fan", action="store_true", help="fan oven: 20 °C (about 35 °F) lower")
args = parser.parse_args()

mark = ALIASES.get(args.mark.strip(), args.mark.strip())
if mark not in MARKS:
    sys.exit(f"gasmark.py: {args.mark!r} is not a gas mark (1/4, 1/2, 1 to 9)")
celsius, fahrenheit = MARKS[mark]
if args.fan:
    celsius, fahrenheit = celsius - 20, fahrenheit - 35
kind = "fan oven" if args.fan else "conventional oven"
if args.fahrenheit:
    print(f"gas mark {mark} = {fahrenheit} °F ({kind})")
else:
    print(f"gas mark {mark} = {celsius} °C ({kind})")

#!/usr/bin/env python3
import sys


def number(text):
    try:
        return float(text.replace("%", ""))
    except ValueError:
        sys.exit(f"error: {text!r} is not a number (usage: pct.py PART WHOLE)")


if len(sys.argv) != 3:
    sys.exit("usage: pct.py PART WHOLE")
part, whole = number(sys.argv[1]), number(sys.argv[2])
if whole == 0:
    sys.exit("error: WHOLE must not be 0")
if part > whole:
    sys.exit(f"error: PART ({part:g}) is larger than WHOLE ({whole:g}); the part comes first: pct.py PART WHOLE")
print(f"{part:g} is {part / whole * 100:.2f}% of {whole:g}")

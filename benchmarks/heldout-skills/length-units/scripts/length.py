#!/usr/bin/env python3
"""Converts a length between two unit codes with exact factors (metres per unit)."""

import sys
from fractions import Fraction

METRES = {"km": Fraction(1000), "m": Fraction(1), "cm": Fraction(1, 100), "mm": Fraction(1, 1000),
          "mi": Fraction(1609344, 1000), "yd": Fraction(9144, 10000), "ft": Fraction(3048, 10000),
          "in": Fraction(254, 10000)}


def main() -> int:
    if len(sys.argv) != 4:
        print("usage: length.py VALUE FROM TO", file=sys.stderr)
        return 2
    value, source, target = sys.argv[1:]
    for code in (source, target):
        if code not in METRES:
            print(f"unknown unit code {code!r}; the codes are: {' '.join(METRES)}", file=sys.stderr)
            return 2
    try:
        amount = Fraction(value)
    except ValueError:
        print(f"not a number: {value!r}", file=sys.stderr)
        return 2
    result = amount * METRES[source] / METRES[target]
    print(f"{value} {source} = {float(result):.6g} {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

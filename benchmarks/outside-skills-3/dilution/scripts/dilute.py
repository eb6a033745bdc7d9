#!/usr/bin/env python3
import sys

USAGE = "usage: dilute.py STOCK TARGET FINAL_ML"


def number(name, text):
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        sys.exit(f"dilute.py: {name} must be a number, got {text!r}\n{USAGE}")
    if value <= 0:
        sys.exit(f"dilute.py: {name} must be more than zero\n{USAGE}")
    return value


if len(sys.argv) != 4:
    sys.exit(USAGE)
stock = number("STOCK", sys.argv[1])
target = number("TARGET", sys.argv[2])
final = number("FINAL_ML", sys.argv[3])
if target >= stock:
    sys.exit(f"dilute.py: TARGET {target:g} is not weaker than STOCK {stock:g}; "
             f"the stock (first) must be the stronger solution\n{USAGE}")
stock_ml = target * final / stock
print(f"{stock_ml:.2f} ml of stock + {final - stock_ml:.2f} ml of water = {final:g} ml at {target:g}")

#!/usr/bin/env python3
import math
import re
import sys

USAGE = "usage: pan.py RECIPE_TIN YOUR_TIN   (tins like round:20, square:23, rect:23x33, loaf:11x21)"


def area(spec):
    match = re.fullmatch(r"(round|square|rect|loaf):(\d+(?:\.\d+)?)(?:x(\d+(?:\.\d+)?))?", spec)
    if not match:
        sys.exit(f"pan.py: cannot read tin {spec!r}\n{USAGE}")
    shape, a, b = match.group(1), float(match.group(2)), match.group(3)
    if shape in ("rect", "loaf"):
        if b is None:
            sys.exit(f"pan.py: {shape} needs WIDTHxLENGTH, e.g. {shape}:23x33")
        return a * float(b)
    if b is not None:
        sys.exit(f"pan.py: {shape} takes one size, not {a:g}x{b}")
    return math.pi * (a / 2) ** 2 if shape == "round" else a * a


if len(sys.argv) != 3:
    sys.exit(USAGE)
recipe, yours = (area(s) for s in sys.argv[1:])
factor = yours / recipe
print(f"recipe tin {recipe:.0f} cm², your tin {yours:.0f} cm²: multiply the ingredients by {factor:.2f}")
if factor > 1.15:
    print("larger batch: check 5-10 minutes later than the recipe says")
elif factor < 0.85:
    print("smaller batch: check 5-10 minutes earlier than the recipe says")

#!/usr/bin/env python3
import re
import sys

if len(sys.argv) != 2:
    sys.exit("usage: length.py LENGTH   (e.g. 30cm or 12in)")
m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(cm|in)\s*", sys.argv[1], re.IGNORECASE)
if not m:
    sys.exit(f"error: cannot read {sys.argv[1]!r}; write the number and its unit together, e.g. 30cm or 12in")
value, unit = float(m.group(1)), m.group(2).lower()
if unit == "cm":
    print(f"{value:g} cm = {value / 2.54:.2f} in")
else:
    print(f"{value:g} in = {value * 2.54:.2f} cm")

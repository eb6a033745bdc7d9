#!/usr/bin/env python3
import sys

WATTS = {"W": 1.0, "kW": 1000.0, "MW": 1e6, "hp": 745.69987, "PS": 735.49875, "hp-e": 746.0,
         "BTU/h": 0.29307107, "TR": 3516.8528, "ft-lbf/s": 1.3558179}

if len(sys.argv) != 4:
    sys.exit("usage: power.py VALUE FROM TO")
value, src, dst = sys.argv[1:]
try:
    amount = float(value)
except ValueError:
    sys.exit(f"power.py: VALUE must be a number, not {value!r}")
for unit in (src, dst):
    if unit not in WATTS:
        sys.exit(f"power.py: unknown unit {unit!r}; units: {' '.join(WATTS)}")
result = amount * WATTS[src] / WATTS[dst]
print(f"{amount:g} {src} = {result:,.2f} {dst}")

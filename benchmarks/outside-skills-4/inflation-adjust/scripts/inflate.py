#!/usr/bin/env python3
import csv
import sys
from pathlib import Path

CPI_FILE = Path(__file__).resolve().parent.parent / "assets" / "cpi-u.csv"

with open(CPI_FILE, newline="", encoding="utf-8") as handle:
    CPI = {int(row["year"]): float(row["cpi"]) for row in csv.DictReader(handle)}

if len(sys.argv) != 4:
    sys.exit("usage: inflate.py AMOUNT FROM_YEAR TO_YEAR")
try:
    amount = float(sys.argv[1])
except ValueError:
    sys.exit(f"inflate.py: AMOUNT {sys.argv[1]!r} is not a plain number")
years = []
for text in sys.argv[2:]:
    if not text.isdigit() or int(text) not in CPI:
        sys.exit(f"inflate.py: no CPI for {text!r}; years available: {', '.join(map(str, CPI))}")
    years.append(int(text))
start, end = years
value = amount * CPI[end] / CPI[start]
print(f"${amount:,.2f} in {start} = ${value:,.2f} in {end} (CPI {CPI[start]:g} -> {CPI[end]:g})")

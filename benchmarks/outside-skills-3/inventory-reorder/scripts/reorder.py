#!/usr/bin/env python3
import argparse
import csv
import math
import sys

COLUMNS = ["sku", "item", "on_hand", "weekly_use", "lead_weeks"]

parser = argparse.ArgumentParser(description="Items to reorder from a stock CSV.")
parser.add_argument("stock_csv")
parser.add_argument("--cover", type=float, default=1.0, help="safety stock in weeks (default 1)")
args = parser.parse_args()
if args.cover < 0:
    parser.error("--cover must be zero or more weeks")
try:
    with open(args.stock_csv, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
except FileNotFoundError:
    sys.exit(f"reorder.py: no such file: {args.stock_csv} (give the CSV's path, e.g. assets/stock.csv)")
if not rows or list(rows[0]) != COLUMNS:
    sys.exit(f"reorder.py: {args.stock_csv} must have the header {','.join(COLUMNS)}")
flagged = 0
for row in rows:
    use = float(row["weekly_use"])
    need = use * (float(row["lead_weeks"]) + args.cover)
    on_hand = float(row["on_hand"])
    if on_hand < need:
        flagged += 1
        print(f"{row['sku']}  {row['item']}: {on_hand:g} on hand, needs {need:g}, "
              f"order {math.ceil(need - on_hand)}")
print(f"{flagged} item(s) to reorder with {args.cover:g} week(s) of safety cover")

#!/usr/bin/env python3
import argparse
import json
import re

parser = argparse.ArgumentParser(prog="scale.py")
parser.add_argument("ingredients", help='JSON object, e.g. {"flour": "500 g", "eggs": 2}')
parser.add_argument("--serves", type=float, required=True, help="servings the recipe makes")
parser.add_argument("--for", dest="target", type=float, required=True, help="servings wanted")
args = parser.parse_args()

try:
    items = json.loads(args.ingredients)
except json.JSONDecodeError as exc:
    parser.error(f"ingredients are not valid JSON: {exc.msg} (column {exc.colno})")
if not isinstance(items, dict):
    parser.error("ingredients must be a JSON object of name: quantity")
factor = args.target / args.serves
print(f"scaling {args.serves:g} -> {args.target:g} servings (x{factor:.3g})")
for name, qty in items.items():
    if isinstance(qty, (int, float)):
        exact = qty * factor
        print(f"  {name}: {round(exact)} (exactly {exact:.2f})")
        continue
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(.*)", str(qty))
    if not m:
        parser.error(f"cannot read the quantity {qty!r} for {name!r}")
    amount, unit = float(m[1]) * factor, m[2].strip()
    shown = f"{amount:.0f}" if unit in ("g", "ml") else f"{amount:.1f}".rstrip("0").rstrip(".")
    print(f"  {name}: {shown} {unit}".rstrip())

#!/usr/bin/env python3
import json
import sys

if len(sys.argv) != 2:
    sys.exit("usage: unit_price.py '{\"price\": P, \"grams\": G}'  (or \"ml\" instead of \"grams\")")
try:
    item = json.loads(sys.argv[1])
except json.JSONDecodeError as err:
    sys.exit(f"error: the argument is not valid JSON ({err}); example: '{{\"price\": 2.5, \"grams\": 750}}'")
if not isinstance(item, dict) or "price" not in item:
    sys.exit("error: expected a JSON object with a \"price\" key")
sizes = [k for k in ("grams", "ml") if k in item]
unknown = sorted(set(item) - {"price", "grams", "ml"})
if unknown:
    sys.exit(f"error: unknown keys {unknown}; allowed: price, grams, ml")
if len(sizes) != 1:
    sys.exit("error: give exactly one of \"grams\" or \"ml\"")
try:
    price, size = float(item["price"]), float(item[sizes[0]])
except (TypeError, ValueError):
    sys.exit("error: price and size must be numbers")
if size <= 0:
    sys.exit("error: the size must be more than 0")
per = price / size * 1000
unit = "kg" if sizes[0] == "grams" else "litre"
print(f"{per:.2f} per {unit}")

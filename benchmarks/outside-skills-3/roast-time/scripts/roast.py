#!/usr/bin/env python3
import argparse
import sys

# minutes per kg at 180 C, plus a fixed extra, then resting minutes
TABLE = {
    ("beef", "rare"): (30, 20, 20), ("beef", "medium"): (40, 20, 20), ("beef", "well"): (50, 25, 20),
    ("lamb", "rare"): (35, 20, 15), ("lamb", "medium"): (45, 20, 15), ("lamb", "well"): (55, 25, 15),
    ("pork", None): (60, 30, 15),
    ("chicken", None): (40, 20, 10),
    ("turkey", None): (35, 30, 30),
}
MEATS = ("beef", "lamb", "pork", "chicken", "turkey")

parser = argparse.ArgumentParser(description="Roasting time for a joint.")
parser.add_argument("meat")
parser.add_argument("kg")
parser.add_argument("--doneness", default="medium")
args = parser.parse_args()

meat = args.meat.lower()
if meat not in MEATS:
    sys.exit(f"roast.py: unknown meat {args.meat!r}")
try:
    kg = float(args.kg)
except ValueError:
    sys.exit(f"roast.py: KG must be a number of kilograms such as 2.5, not {args.kg!r}")
if not 0.3 <= kg <= 12:
    sys.exit(f"roast.py: {args.kg} kg is not a roasting joint (0.3 to 12 kg); grams? divide by 1000")
key = (meat, args.doneness if meat in ("beef", "lamb") else None)
if key not in TABLE:
    sys.exit(f"roast.py: unknown doneness {args.doneness!r}")
per_kg, extra, rest = TABLE[key]
total = round(per_kg * kg + extra)
label = f"{meat} ({args.doneness})" if key[1] else meat
print(f"{label}, {kg:g} kg: roast {total // 60} h {total % 60:02d} min, then rest {rest} min")

#!/usr/bin/env python3
import sys
from fractions import Fraction

GRAMS_PER_CUP = {
    "flour-ap": 125, "flour-bread": 130, "flour-wholewheat": 120, "sugar-white": 200,
    "sugar-brown": 220, "sugar-icing": 120, "cocoa": 85, "butter": 227, "oats": 90,
    "honey": 340, "milk": 245, "rice": 185, "walnuts": 115,
}
PER_CUP = {"cup": Fraction(1), "tbsp": Fraction(1, 16), "tsp": Fraction(1, 48)}

if len(sys.argv) != 4:
    sys.exit("usage: convert.py AMOUNT UNIT INGREDIENT")
amount_text, unit, ingredient = sys.argv[1:]
try:
    amount = Fraction(amount_text)
except (ValueError, ZeroDivisionError):
    sys.exit(f"convert.py: AMOUNT {amount_text!r} is not a number or fraction like 3/4")
if unit not in PER_CUP:
    sys.exit(f"convert.py: UNIT must be cup, tbsp or tsp, not {unit!r}")
if ingredient not in GRAMS_PER_CUP:
    sys.exit(f"convert.py: unknown ingredient id {ingredient!r} (see references/Ingredients.md)")
grams = float(amount * PER_CUP[unit] * GRAMS_PER_CUP[ingredient])
print(f"{amount_text} {unit} {ingredient} = {grams:.1f} g")

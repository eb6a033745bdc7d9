#!/usr/bin/env python3
import sys

DIGIT = {"black": 0, "brown": 1, "red": 2, "orange": 3, "yellow": 4, "green": 5, "blue": 6,
         "violet": 7, "grey": 8, "white": 9}
MULT = {"black": 1, "brown": 10, "red": 100, "orange": 1e3, "yellow": 1e4, "green": 1e5,
        "blue": 1e6, "violet": 1e7, "gold": 0.1, "silver": 0.01}
TOL = {"brown": 1, "red": 2, "green": 0.5, "blue": 0.25, "violet": 0.1, "grey": 0.05, "gold": 5,
       "silver": 10}
SAME = {"gray": "grey", "purple": "violet"}


def ohms(value):
    for limit, suffix in ((1e6, " M"), (1e3, " k")):
        if value >= limit:
            return f"{value / limit:g}{suffix}Ω"
    return f"{value:g} Ω"


bands = [SAME.get(b.lower(), b.lower()) for b in sys.argv[1:]]
if len(bands) not in (3, 4, 5):
    sys.exit("usage: bands.py COLOUR COLOUR COLOUR [COLOUR [COLOUR]]  (3, 4 or 5 bands)")
known = set(DIGIT) | set(MULT)
unknown = [b for b in bands if b not in known]
if unknown:
    sys.exit(f"bands.py: unknown colour {unknown[0]!r}; colours: {', '.join(DIGIT)}, gold, silver")
digits = bands[:2] if len(bands) < 5 else bands[:3]
mult, tol = bands[len(digits)], bands[len(digits) + 1] if len(bands) > 3 else None
if any(d not in DIGIT for d in digits):
    sys.exit("bands.py: a digit band cannot be gold or silver; read the resistor from the other end")
if tol is not None and tol not in TOL:
    sys.exit(f"bands.py: {tol} is not a tolerance colour")
value = int("".join(str(DIGIT[d]) for d in digits)) * MULT[mult]
print(f"{ohms(value)} ±{TOL[tol] if tol else 20:g} %")

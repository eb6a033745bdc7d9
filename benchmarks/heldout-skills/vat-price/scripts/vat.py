#!/usr/bin/env python3
"""Adds a country's standard VAT rate to a net amount."""

import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

RATES = {"at": 20, "be": 21, "de": 19, "dk": 25, "es": 21, "fi": 24, "fr": 20, "ie": 23, "it": 22,
         "lu": 17, "nl": 21, "pt": 23, "se": 25}

if len(sys.argv) != 3:
    print("usage: vat.py AMOUNT COUNTRY", file=sys.stderr)
    sys.exit(2)
try:
    net = Decimal(sys.argv[1])
except InvalidOperation:
    print(f"not an amount: {sys.argv[1]!r}", file=sys.stderr)
    sys.exit(2)
country = sys.argv[2]
if country not in RATES:
    print(f"unknown country code {country!r}: see references/rates.md", file=sys.stderr)
    sys.exit(2)
gross = (net * (100 + RATES[country]) / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
print(f"net {net:.2f}, VAT {RATES[country]}% ({country}), gross {gross}")

#!/usr/bin/env python3
import argparse
import sys

DEDUCTION = {"single": 14600, "mfj": 29200, "mfs": 14600, "hoh": 21900}
RATES = [10, 12, 22, 24, 32, 35, 37]
THRESHOLDS = {
    "single": [0, 11600, 47150, 100525, 191950, 243725, 609350],
    "mfj": [0, 23200, 94300, 201050, 383900, 487450, 731200],
    "mfs": [0, 11600, 47150, 100525, 191950, 243725, 365600],
    "hoh": [0, 16550, 63100, 100500, 191950, 243700, 609350],
}

parser = argparse.ArgumentParser(prog="tax.py", description="2024 US federal income tax.")
parser.add_argument("income", type=float)
parser.add_argument("--status", required=True)
args = parser.parse_args()
if args.status not in DEDUCTION:
    sys.exit(f"tax.py: unknown filing status {args.status!r}")
taxable = max(0.0, args.income - DEDUCTION[args.status])
tax = 0.0
bounds = THRESHOLDS[args.status] + [float("inf")]
marginal = RATES[0]
for rate, low, high in zip(RATES, bounds, bounds[1:]):
    if taxable > low:
        tax += (min(taxable, high) - low) * rate / 100
        marginal = rate
effective = 100 * tax / args.income if args.income > 0 else 0.0
print(f"taxable income ${taxable:,.0f}; tax ${tax:,.0f}; marginal rate {marginal}%; "
      f"effective rate {effective:.1f}%")

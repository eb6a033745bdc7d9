#!/usr/bin/env python3
import argparse
import json

parser = argparse.ArgumentParser(prog="mortgage.py")
parser.add_argument("--principal", type=float, required=True)
parser.add_argument("--rate", type=float, required=True, help="annual percent")
parser.add_argument("--years", type=float, required=True)
parser.add_argument("--interest-only", action="store_true")
parser.add_argument("--json", action="store_true")
args = parser.parse_args()
if args.rate >= 50:
    parser.error(f"--rate {args.rate:g}% looks wrong; give the annual rate in percent")
months = round(args.years * 12)
r = args.rate / 100 / 12
if args.interest_only:
    payment = args.principal * r
    total_interest = payment * months
elif r == 0:
    payment = args.principal / months
    total_interest = 0.0
else:
    payment = args.principal * r / (1 - (1 + r) ** -months)
    total_interest = payment * months - args.principal
result = {"monthly_payment": round(payment, 2), "months": months,
          "total_interest": round(total_interest, 2),
          "total_paid": round(total_interest + args.principal, 2)}
if args.json:
    print(json.dumps(result))
else:
    print(f"monthly payment {payment:,.2f} over {months} months")
    print(f"total interest {total_interest:,.2f}; total paid {total_interest + args.principal:,.2f}")

#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="goal.py")
parser.add_argument("target", type=float)
parser.add_argument("--monthly", type=float, required=True)
parser.add_argument("--rate", type=float, default=0.0, help="annual percent")
parser.add_argument("--start", type=float, default=0.0)
args = parser.parse_args()
if args.monthly <= 0:
    parser.error("--monthly must be more than 0")
r = args.rate / 100 / 12
balance, months, deposited = args.start, 0, args.start
while balance < args.target:
    balance = balance * (1 + r) + args.monthly
    deposited += args.monthly
    months += 1
    if months > 1200:
        parser.error("the target is more than 100 years away")
years, rest = divmod(months, 12)
print(f"{months} months ({years} years {rest} months) to reach {args.target:,.0f}")
print(f"balance {balance:,.2f}: deposits {deposited:,.2f}, interest {balance - deposited:,.2f}")

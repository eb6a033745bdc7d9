#!/usr/bin/env python3
import sys

PLANS = {"starter": 5.00, "team": 12.00, "business": 29.00}
LONG_TERM = 12
DISCOUNT = 0.15


def main(args):
    if len(args) != 2:
        return "usage: cost.py PLAN MONTHS"
    plan = args[0].lower()
    if plan not in PLANS:
        return f"error: unknown plan {args[0]!r}; plans: {', '.join(PLANS)}"
    if not args[1].isdigit() or int(args[1]) < 1:
        return f"error: MONTHS must be a whole number of months, got {args[1]!r}"
    months = int(args[1])
    total = PLANS[plan] * months
    note = ""
    if months >= LONG_TERM:
        total *= 1 - DISCOUNT
        note = f" (incl. {DISCOUNT:.0%} long-term discount)"
    print(f"{plan}, {months} months: {total:.2f}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

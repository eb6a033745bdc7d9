#!/usr/bin/env python3
import sys
PER_EUR = {"EUR": 1.0, "USD": 1.10, "GBP": 0.85, "JPY": 160.0}
amount, src, dst = sys.argv[1:4]
for code in (src, dst):
    if code not in PER_EUR:
        sys.exit(f"unknown currency {code!r}; known: {', '.join(PER_EUR)}")
print(f"{float(amount):.2f} {src} = {float(amount) / PER_EUR[src] * PER_EUR[dst]:.2f} {dst}")

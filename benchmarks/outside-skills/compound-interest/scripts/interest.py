#!/usr/bin/env python3
import argparse
p = argparse.ArgumentParser()
p.add_argument("--principal", type=float, required=True)
p.add_argument("--rate", type=float, required=True)
p.add_argument("--years", type=int, required=True)
a = p.parse_args()
print(f"after {a.years} years: {a.principal * (1 + a.rate / 100) ** a.years:.2f}")

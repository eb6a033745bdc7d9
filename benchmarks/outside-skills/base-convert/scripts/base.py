#!/usr/bin/env python3
"""Convert a whole number to another base.

usage: base.py NUMBER --to BASE
"""
import argparse
p = argparse.ArgumentParser()
p.add_argument("number", type=int)
p.add_argument("--to", choices=["bin", "oct", "hex"], required=True)
a = p.parse_args()
print(f"{a.number} in {a.to}: {format(a.number, {'bin': 'b', 'oct': 'o', 'hex': 'x'}[a.to])}")

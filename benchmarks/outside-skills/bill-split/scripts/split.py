#!/usr/bin/env python3
import argparse
p = argparse.ArgumentParser()
p.add_argument("--total", type=float, required=True)
p.add_argument("--people", type=int, required=True)
p.add_argument("--tip", type=float, default=10)
a = p.parse_args()
share = a.total * (1 + a.tip / 100) / a.people
print(f"each of {a.people} pays {share:.2f} (tip {a.tip:g}%)")

#!/usr/bin/env python3
import sys
if len(sys.argv) != 4:
    sys.exit("usage: temp.py VALUE FROM TO")
value, src, dst = float(sys.argv[1]), sys.argv[2], sys.argv[3]
to_k = {"C": lambda v: v + 273.15, "F": lambda v: (v - 32) * 5 / 9 + 273.15, "K": lambda v: v}
from_k = {"C": lambda k: k - 273.15, "F": lambda k: (k - 273.15) * 9 / 5 + 32, "K": lambda k: k}
if src not in to_k or dst not in to_k:
    sys.exit(f"unknown scale {src if src not in to_k else dst!r}; use C, F or K")
print(f"{value:g} {src} = {from_k[dst](to_k[src](value)):.2f} {dst}")

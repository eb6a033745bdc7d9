#!/usr/bin/env python3
import sys
BYTES = {"B": 1, "kB": 10**3, "MB": 10**6, "GB": 10**9, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
value, src, dst = float(sys.argv[1]), sys.argv[2], sys.argv[3]
if src not in BYTES or dst not in BYTES:
    sys.exit("unknown unit; known: " + ", ".join(BYTES))
print(f"{value:g} {src} = {value * BYTES[src] / BYTES[dst]:.2f} {dst}")

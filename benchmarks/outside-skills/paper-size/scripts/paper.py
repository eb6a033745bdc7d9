#!/usr/bin/env python3
import sys
SIZES = {"A3": (297, 420), "A4": (210, 297), "A5": (148, 210), "Letter": (216, 279), "Legal": (216, 356)}
size = sys.argv[1]
if size not in SIZES:
    sys.exit(f"unknown size {size!r}")
print(f"{size}: {SIZES[size][0]} x {SIZES[size][1]} mm")

#!/usr/bin/env python3
import math, sys
shape, size = sys.argv[1], float(sys.argv[2])
area = {"circle": math.pi * size ** 2, "square": size ** 2, "triangle": math.sqrt(3) / 4 * size ** 2}
if shape not in area:
    sys.exit(f"unknown shape {shape}")
print(f"area of the {shape} of size {size:g}: {area[shape]:.2f}")

#!/usr/bin/env python3
import cmath
import sys

USAGE = "usage: roots.py A B C   (for A*x^2 + B*x + C = 0)"
if len(sys.argv) != 4:
    sys.exit(USAGE)
try:
    a, b, c = (float(v) for v in sys.argv[1:])
except ValueError:
    sys.exit(USAGE)
if a == 0:
    sys.exit("roots.py: A is 0, so this is not a quadratic")
disc = b * b - 4 * a * c
root = cmath.sqrt(disc)
x1, x2 = (-b + root) / (2 * a), (-b - root) / (2 * a)


def show(z):
    return f"{z.real:g}" if abs(z.imag) < 1e-12 else f"{z.real:g}{z.imag:+g}i"


print(f"discriminant {disc:g}")
print(f"x1 = {show(x1)}, x2 = {show(x2)}")
print(f"vertex ({-b / (2 * a):g}, {c - b * b / (4 * a):g})")

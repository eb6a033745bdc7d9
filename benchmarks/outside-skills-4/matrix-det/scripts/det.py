#!/usr/bin/env python3
import argparse
import json
from fractions import Fraction

parser = argparse.ArgumentParser(prog="det.py", description="Exact determinant of a square matrix.")
parser.add_argument("matrix", help="JSON array of rows, e.g. '[[1, 2], [3, 4]]'")
parser.add_argument("--inverse", action="store_true")
args = parser.parse_args()
try:
    rows = json.loads(args.matrix)
    m = [[Fraction(str(x)) for x in row] for row in rows]
except (json.JSONDecodeError, TypeError, ValueError, ZeroDivisionError):
    parser.error("MATRIX must be a JSON array of rows of numbers, e.g. '[[1, 2], [3, 4]]'")
n = len(m)
if n == 0 or any(len(row) != n for row in m):
    parser.error(f"the matrix is not square ({n} rows of lengths {[len(r) for r in m]})")

a = [row[:] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(m)]
det = Fraction(1)
for col in range(n):
    pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
    if pivot is None:
        det = Fraction(0)
        break
    if pivot != col:
        a[col], a[pivot] = a[pivot], a[col]
        det = -det
    det *= a[col][col]
    p = a[col][col]
    a[col] = [x / p for x in a[col]]
    for r in range(n):
        if r != col and a[r][col] != 0:
            f = a[r][col]
            a[r] = [x - f * y for x, y in zip(a[r], a[col])]
print(f"determinant = {det}")
if args.inverse:
    if det == 0:
        print("no inverse (singular matrix)")
    else:
        for row in a:
            print("  [" + ", ".join(str(x) for x in row[n:]) + "]")

#!/usr/bin/env python3
import sys
V = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
if len(sys.argv) != 3 or sys.argv[1] not in ("to", "from"):
    sys.exit("usage: roman.py {to,from} VALUE")
if sys.argv[1] == "to":
    n, out = int(sys.argv[2]), ""
    for v, s in V:
        while n >= v:
            out, n = out + s, n - v
    print(f"{sys.argv[2]} = {out}")
else:
    s, n = sys.argv[2].upper(), 0
    for v, sym in V:
        while s.startswith(sym):
            n, s = n + v, s[len(sym):]
    print(f"{sys.argv[2]} = {n}")

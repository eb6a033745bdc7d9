#!/usr/bin/env python3
import re
import sys

MASS = {
    "H": 1.008, "He": 4.003, "Li": 6.94, "Be": 9.012, "B": 10.81, "C": 12.011, "N": 14.007,
    "O": 15.999, "F": 18.998, "Ne": 20.18, "Na": 22.99, "Mg": 24.305, "Al": 26.982, "Si": 28.085,
    "P": 30.974, "S": 32.06, "Cl": 35.45, "Ar": 39.948, "K": 39.098, "Ca": 40.078, "Sc": 44.956,
    "Ti": 47.867, "V": 50.942, "Cr": 51.996, "Mn": 54.938, "Fe": 55.845, "Co": 58.933,
    "Ni": 58.693, "Cu": 63.546, "Zn": 65.38, "Ga": 69.723, "Ge": 72.63, "As": 74.922,
    "Se": 78.971, "Br": 79.904, "Kr": 83.798, "Rb": 85.468, "Sr": 87.62, "Y": 88.906,
    "Zr": 91.224, "Nb": 92.906, "Mo": 95.95, "Ru": 101.07, "Rh": 102.906, "Pd": 106.42,
    "Ag": 107.868, "Cd": 112.414, "In": 114.818, "Sn": 118.71, "Sb": 121.76, "Te": 127.6,
    "I": 126.904, "Xe": 131.293, "Cs": 132.905, "Ba": 137.327, "La": 138.905, "W": 183.84,
    "Pt": 195.084, "Au": 196.967, "Hg": 200.592, "Pb": 207.2, "Bi": 208.98, "U": 238.029,
}
TOKEN = re.compile(r"([A-Z][a-z]?)(\d*)|(\()|(\))(\d*)")


def parse(formula):
    stack = [{}]
    pos = 0
    while pos < len(formula):
        m = TOKEN.match(formula, pos)
        if not m:
            raise ValueError(f"cannot read {formula[pos:]!r}")
        if m[1]:
            if m[1] not in MASS:
                raise ValueError(f"unknown element {m[1]!r}")
            stack[-1][m[1]] = stack[-1].get(m[1], 0) + int(m[2] or 1)
        elif m[3]:
            stack.append({})
        else:
            if len(stack) == 1:
                raise ValueError("unbalanced ')'")
            group = stack.pop()
            for el, n in group.items():
                stack[-1][el] = stack[-1].get(el, 0) + n * int(m[5] or 1)
        pos = m.end()
    if len(stack) != 1:
        raise ValueError("unbalanced '('")
    return stack[0]


if len(sys.argv) != 2:
    sys.exit("usage: molar.py FORMULA")
formula = sys.argv[1].replace(" ", "")
counts = {}
try:
    for part in formula.split("*"):
        m = re.match(r"(\d*)(.+)", part)
        times = int(m[1] or 1) if m else 1
        for el, n in parse(m[2] if m else part).items():
            counts[el] = counts.get(el, 0) + n * times
except (ValueError, TypeError) as exc:
    sys.exit(f"molar.py: {exc}")
total = sum(MASS[el] * n for el, n in counts.items())
print(f"{formula}: {total:.2f} g/mol")
for el, n in counts.items():
    print(f"  {el:<2} x{n:<3} {100 * MASS[el] * n / total:5.1f} %")

#!/usr/bin/env python3
import sys

# symbol: (name, atomic number, standard atomic mass, group)
ELEMENTS = {
    "H": ("hydrogen", 1, 1.008, 1), "He": ("helium", 2, 4.0026, 18),
    "Li": ("lithium", 3, 6.94, 1), "C": ("carbon", 6, 12.011, 14),
    "N": ("nitrogen", 7, 14.007, 15), "O": ("oxygen", 8, 15.999, 16),
    "F": ("fluorine", 9, 18.998, 17), "Ne": ("neon", 10, 20.180, 18),
    "Na": ("sodium", 11, 22.990, 1), "Mg": ("magnesium", 12, 24.305, 2),
    "Al": ("aluminium", 13, 26.982, 13), "Si": ("silicon", 14, 28.085, 14),
    "P": ("phosphorus", 15, 30.974, 15), "S": ("sulfur", 16, 32.06, 16),
    "Cl": ("chlorine", 17, 35.45, 17), "K": ("potassium", 19, 39.098, 1),
    "Ca": ("calcium", 20, 40.078, 2), "Fe": ("iron", 26, 55.845, 8),
    "Cu": ("copper", 29, 63.546, 11), "Zn": ("zinc", 30, 65.38, 12),
}

if len(sys.argv) != 2:
    sys.exit("usage: element.py SYMBOL")
symbol = sys.argv[1].strip().capitalize()
if symbol not in ELEMENTS:
    sys.exit(f"error: unknown element symbol {sys.argv[1]!r}; known symbols: {' '.join(ELEMENTS)}")
name, number, mass, group = ELEMENTS[symbol]
print(f"{symbol} ({name}): atomic number {number}, atomic mass {mass} u, group {group}")

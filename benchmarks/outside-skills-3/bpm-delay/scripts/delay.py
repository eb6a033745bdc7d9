#!/usr/bin/env python3
import sys
from fractions import Fraction

BASE = {"1/1": Fraction(4), "1/2": Fraction(2), "1/4": Fraction(1), "1/8": Fraction(1, 2),
        "1/16": Fraction(1, 4), "1/32": Fraction(1, 8)}


def beats(note):
    if note in BASE:
        return BASE[note]
    if note[:-1] in BASE and note.endswith("."):
        return BASE[note[:-1]] * Fraction(3, 2)
    if note[:-1] in BASE and note.endswith("t"):
        return BASE[note[:-1]] * Fraction(2, 3)
    return None


if len(sys.argv) != 3:
    sys.exit("usage: delay.py BPM NOTE   (e.g. delay.py 120 1/8.)")
try:
    bpm = float(sys.argv[1])
except ValueError:
    sys.exit(f"delay.py: BPM must be a number, not {sys.argv[1]!r}")
if not 20 <= bpm <= 400:
    sys.exit(f"delay.py: {bpm:g} BPM is outside 20 to 400")
length = beats(sys.argv[2])
if length is None:
    sys.exit(f"delay.py: {sys.argv[2]!r} is not a note value such as 1/4, 1/8. (dotted) or 1/8t (triplet)")
ms = 60000 / bpm * float(length)
print(f"{sys.argv[2]} at {bpm:g} BPM: {ms:.2f} ms ({1000 / ms:.3f} Hz)")

#!/usr/bin/env python3
import argparse
import math
import re

SEMITONE = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}
NAMES = ["A", "A#", "B", "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#"]

parser = argparse.ArgumentParser(prog="pitch.py")
parser.add_argument("note", nargs="?")
parser.add_argument("--a4", type=float, default=440.0)
parser.add_argument("--hz", type=float)
args = parser.parse_args()

if args.hz:
    n = 12 * math.log2(args.hz / args.a4)
    k = round(n)
    octave = 4 + (k + 9) // 12
    cents = (n - k) * 100
    print(f"{args.hz:g} Hz is nearest {NAMES[k % 12]}{octave} ({cents:+.0f} cents)")
elif args.note:
    m = re.fullmatch(r"([A-Ga-g])([#b]?)(-?\d)", args.note)
    if not m:
        parser.error(f"{args.note!r} is not a note like A4, C#5 or Eb3 (letter, accidental, octave)")
    n = SEMITONE[m[1].upper()] + {"#": 1, "b": -1, "": 0}[m[2]] + 12 * (int(m[3]) - 4)
    hz = args.a4 * 2 ** (n / 12)
    print(f"{m[1].upper()}{m[2]}{m[3]} = {hz:.2f} Hz ({n:+d} semitones from A4 = {args.a4:g} Hz)")
else:
    parser.error("give a NOTE or --hz")

#!/usr/bin/env python3
import argparse
import sys

TYPES = {
    "road": (0.70, "cm", [(50, "XS"), (54, "S"), (57, "M"), (60, "L")]),
    "gravel": (0.68, "cm", [(50, "XS"), (54, "S"), (57, "M"), (60, "L")]),
    "hybrid": (0.66, "cm", [(46, "XS"), (50, "S"), (54, "M"), (58, "L")]),
    "mtb": (0.226, "in", [(14, "XS"), (16, "S"), (18, "M"), (20, "L")]),
}

parser = argparse.ArgumentParser(prog="frame.py")
parser.add_argument("inseam", type=float, help="inside leg in cm")
parser.add_argument("--type", required=True)
args = parser.parse_args()
if args.type not in TYPES:
    sys.exit(f"frame.py: unknown frame type {args.type!r} (see references/Frame-Types.md)")
if args.inseam < 50:
    sys.exit(f"frame.py: an inseam of {args.inseam:g} cm is too short; give it in centimetres")
factor, unit, letters = TYPES[args.type]
size = args.inseam * factor
letter = next((name for limit, name in letters if size < limit), "XL")
print(f"inseam {args.inseam:g} cm, {args.type}: frame {size:.1f} {unit} (size {letter})")

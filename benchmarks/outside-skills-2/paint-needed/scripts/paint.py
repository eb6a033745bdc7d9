#!/usr/bin/env python3
import argparse

COVERAGE_M2_PER_LITRE = 12

parser = argparse.ArgumentParser(description="Litres of paint for a wall.")
parser.add_argument("width", type=float, help="metres")
parser.add_argument("height", type=float, help="metres")
parser.add_argument("--coats", type=int, default=2)
args = parser.parse_args()
if args.width <= 0 or args.height <= 0:
    parser.error("WIDTH and HEIGHT must be more than 0 metres")
if args.width > 100 or args.height > 30:
    parser.error("that wall is too big for metres; give WIDTH and HEIGHT in metres, e.g. 4 2.5")
if args.coats < 1:
    parser.error("--coats must be at least 1")
area = args.width * args.height
litres = area * args.coats / COVERAGE_M2_PER_LITRE
print(f"wall {area:.1f} m2, {args.coats} coat(s): {litres:.2f} litres")

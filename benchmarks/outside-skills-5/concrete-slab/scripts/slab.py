#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="slab.py")
parser.add_argument("length", type=float, help="metres")
parser.add_argument("width", type=float, help="metres")
parser.add_argument("depth", type=float, help="metres")
parser.add_argument("--bag", type=int, default=20, choices=[20, 25, 30], help="bag size in kg")
parser.add_argument("--waste", type=float, default=5.0, help="percent extra")
args = parser.parse_args()
if args.depth > 1:
    print(f"warning: a slab {args.depth:g} m thick is unusual; DEPTH is in metres")
volume = args.length * args.width * args.depth
needed = volume * (1 + args.waste / 100)
bags = math.ceil(needed * 2200 / args.bag)
print(f"slab {args.length:g} x {args.width:g} x {args.depth:g} m = {volume:.2f} m³ "
      f"({needed:.2f} m³ with {args.waste:g}% waste)")
print(f"{bags} bags of {args.bag} kg premix")
if needed > 1:
    print("over 1 m³: compare with a ready-mix delivery")

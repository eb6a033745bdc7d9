#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="stairs.py", description="Equal stair risers for a total rise.")
parser.add_argument("total", type=float, help="floor to floor, mm")
parser.add_argument("--max-riser", type=float, default=190)
parser.add_argument("--going", type=float, default=250)
args = parser.parse_args()
if args.total < 300:
    parser.error(f"total rise {args.total:g} mm is too small for a stair (give millimetres)")
risers = math.ceil(args.total / args.max_riser - 1e-9)
height = args.total / risers
pitch = 2 * height + args.going
ok = "within" if 550 <= pitch <= 700 else "outside"
print(f"{risers} risers of {height:.1f} mm, {risers - 1} treads of {args.going:g} mm "
      f"(total going {(risers - 1) * args.going:.0f} mm); 2R+G = {pitch:.0f} mm, {ok} 550-700")

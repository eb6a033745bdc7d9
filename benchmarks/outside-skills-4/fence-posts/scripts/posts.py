#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="posts.py", description="Fence materials for a straight run.")
parser.add_argument("--length", type=float, required=True, help="metres")
parser.add_argument("--spacing", type=float, default=2.4, help="max metres between posts")
parser.add_argument("--rails", type=int, default=2)
parser.add_argument("--gates", type=int, default=0)
args = parser.parse_args()
if args.length <= 0 or args.spacing <= 0:
    parser.error("--length and --spacing must be positive")
bays = math.ceil(args.length / args.spacing - 1e-9)
posts = bays + 1 + args.gates
print(f"{args.length:g} m run: {bays} bays of {args.length / bays:.2f} m, {posts} posts, "
      f"{bays * args.rails} rails")

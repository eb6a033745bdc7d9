#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="seconds -> h:mm:ss")
parser.add_argument("--seconds", type=int, required=True, metavar="N")
args = parser.parse_args()
if args.seconds < 0:
    parser.error("--seconds must not be negative")
h, rest = divmod(args.seconds, 3600)
m, s = divmod(rest, 60)
print(f"{args.seconds} s = {h}:{m:02d}:{s:02d} ({h} h {m} min {s} s)")

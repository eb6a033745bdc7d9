#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="wpm.py", description="Words per minute from a typing test.")
parser.add_argument("-c", dest="chars", type=int, required=True)
parser.add_argument("-t", dest="seconds", type=float, required=True)
parser.add_argument("-e", dest="errors", type=int, default=0)
args = parser.parse_args()
if args.seconds <= 0 or args.chars < 0 or args.errors < 0:
    parser.error("CHARS and ERRORS must be 0 or more and SECONDS positive")
minutes = args.seconds / 60
gross = args.chars / 5 / minutes
net = max(0.0, gross - args.errors / minutes)
accuracy = 100 * (1 - args.errors * 5 / args.chars) if args.chars else 0.0
print(f"gross {gross:.1f} wpm, net {net:.1f} wpm, accuracy {accuracy:.1f}%")

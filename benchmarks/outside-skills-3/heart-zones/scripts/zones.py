#!/usr/bin/env python3
import argparse

BANDS = {1: (0.50, 0.60), 2: (0.60, 0.70), 3: (0.70, 0.80), 4: (0.80, 0.90), 5: (0.90, 1.00)}
NAMES = {1: "recovery", 2: "endurance", 3: "tempo", 4: "threshold", 5: "VO2 max"}

parser = argparse.ArgumentParser(description="Karvonen heart-rate zone.")
parser.add_argument("--age", type=int, required=True)
parser.add_argument("--resting", type=int, required=True, help="resting heart rate, bpm")
parser.add_argument("--zone", type=int, required=True, help="zone number 1-5")
parser.add_argument("--max", type=int, help="measured maximum heart rate, bpm")
args = parser.parse_args()
if args.zone not in BANDS:
    parser.error(f"--zone {args.zone} does not exist")
if not 10 <= args.age <= 100:
    parser.error(f"--age {args.age} is not an age in years")
top = args.max or 220 - args.age
if not 30 <= args.resting < top:
    parser.error(f"--resting {args.resting} is not a resting pulse below the maximum {top}")
reserve = top - args.resting
low, high = (round(args.resting + share * reserve) for share in BANDS[args.zone])
print(f"zone {args.zone} ({NAMES[args.zone]}): {low}-{high} bpm (max {top}, resting {args.resting})")

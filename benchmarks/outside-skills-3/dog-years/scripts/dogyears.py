#!/usr/bin/env python3
import argparse

HUMAN_YEARS = {
    "small":  [15, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80],
    "medium": [15, 24, 28, 32, 36, 42, 47, 51, 56, 60, 65, 69, 74, 78, 83, 87],
    "large":  [15, 24, 28, 32, 36, 45, 50, 55, 61, 66, 72, 77, 82, 88, 93, 99],
    "giant":  [12, 22, 31, 38, 45, 49, 56, 64, 71, 79, 86, 93, 100, 107, 114, 121],
}

parser = argparse.ArgumentParser(description="Dog years to human years.")
parser.add_argument("age", type=int, help="dog's age in whole years")
parser.add_argument("--size", default="medium", help="small, medium, large or giant")
args = parser.parse_args()
if args.size not in HUMAN_YEARS:
    parser.error(f"--size {args.size!r}: not a size class")
if not 1 <= args.age <= 16:
    parser.error(f"AGE {args.age} is outside the chart (1 to 16 years)")
print(f"a {args.age}-year-old {args.size} dog is about {HUMAN_YEARS[args.size][args.age - 1]} in human years")

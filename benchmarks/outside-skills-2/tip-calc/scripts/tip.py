#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(description="Tip and total for a bill.")
parser.add_argument("--bill", type=float, required=True, help="the bill before the tip")
parser.add_argument("--percent", type=float, default=15.0, help="tip in percent (default 15)")
parser.add_argument("--split", type=int, default=1, help="number of people (default 1)")
args = parser.parse_args()
if args.bill <= 0:
    parser.error("--bill must be more than 0")
if args.split < 1:
    parser.error("--split must be at least 1")
tip = round(args.bill * args.percent / 100, 2)
total = round(args.bill + tip, 2)
print(f"tip {tip:.2f} ({args.percent:g}%), total {total:.2f}")
if args.split > 1:
    print(f"each of {args.split} pays {total / args.split:.2f}")

#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="runtime.py", description="Battery runtime estimate.")
parser.add_argument("capacity", type=float, help="mAh")
parser.add_argument("load", type=float, help="mA")
parser.add_argument("--efficiency", type=float, default=0.85)
args = parser.parse_args()
if args.capacity <= 0 or args.load <= 0:
    parser.error("CAPACITY and LOAD must be positive")
if not 0 < args.efficiency <= 1:
    parser.error("--efficiency is a fraction between 0 and 1, e.g. 0.85")
hours = args.capacity * args.efficiency / args.load
whole = int(hours)
minutes = round((hours - whole) * 60)
if minutes == 60:
    whole, minutes = whole + 1, 0
print(f"{hours:.1f} h ({whole} h {minutes} min)")

#!/usr/bin/env python3
import argparse
import math

parser = argparse.ArgumentParser(prog="pitch.py", description="Roof pitch conversions.")
sub = parser.add_subparsers(dest="command", required=True)
p = sub.add_parser("degrees")
p.add_argument("rise", type=float)
p.add_argument("run", type=float)
p = sub.add_parser("ratio")
p.add_argument("degrees", type=float)
p = sub.add_parser("grade")
p.add_argument("percent", type=float)
args = parser.parse_args()

if args.command == "degrees":
    if args.run <= 0 or args.rise < 0:
        parser.error("RUN must be positive and RISE 0 or more")
    angle = math.degrees(math.atan2(args.rise, args.run))
    slope = args.rise / args.run
    print(f"{args.rise:g} in {args.run:g} = {angle:.1f}°, grade {slope * 100:.1f}%, "
          f"rafter factor {math.hypot(1, slope):.3f}")
else:
    if args.command == "ratio":
        if not 0 <= args.degrees < 90:
            parser.error("DEGREES must be from 0 up to (not including) 90")
        angle = args.degrees
    else:
        angle = math.degrees(math.atan(args.percent / 100))
    rise = 12 * math.tan(math.radians(angle))
    print(f"{angle:.1f}° = {rise:.2f} in 12, rafter factor {1 / math.cos(math.radians(angle)):.3f}")

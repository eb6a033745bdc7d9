#!/usr/bin/env python3
import argparse
import re

CYCLE = 90
FALL_ASLEEP = 20


def clock(text):
    match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a 24-hour time like 06:45 or 22:30")
    return int(match.group(1)) * 60 + int(match.group(2))


def show(minutes):
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


parser = argparse.ArgumentParser(prog="sleep.py")
sub = parser.add_subparsers(dest="mode", required=True)
sub.add_parser("wake", help="bedtimes for a wake-up time").add_argument("time", type=clock)
sub.add_parser("bed", help="alarm times for a bedtime").add_argument("time", type=clock)
args = parser.parse_args()

if args.mode == "wake":
    times = [show(args.time - cycles * CYCLE - FALL_ASLEEP) for cycles in (6, 5, 4)]
    print(f"to wake at {show(args.time)}, go to bed at: " + ", ".join(times) + " (6, 5 or 4 cycles)")
else:
    times = [show(args.time + FALL_ASLEEP + cycles * CYCLE) for cycles in (6, 5, 4)]
    print(f"going to bed at {show(args.time)}, set the alarm for: " + ", ".join(times) + " (6, 5 or 4 cycles)")

#!/usr/bin/env python3
import math
import sys

args = sys.argv[1:]
if not args:
    sys.exit("usage: dbsum.py LEVEL [LEVEL ...]   (levels in dB, one per source)")
levels = []
for arg in args:
    try:
        level = float(arg)
    except ValueError:
        sys.exit(f"dbsum.py: {arg!r} is not a level: pass plain numbers such as 85, without 'dB'")
    if not 0 <= level <= 194:
        sys.exit(f"dbsum.py: {arg} dB is outside 0 to 194 dB")
    levels.append(level)
if len(levels) == 1:
    sys.exit("dbsum.py: give at least two levels to combine (one per source)")
total = 10 * math.log10(sum(10 ** (level / 10) for level in levels))
shown = " + ".join(f"{level:g}" for level in levels)
print(f"{shown} dB combined: {total:.1f} dB")

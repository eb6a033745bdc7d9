#!/usr/bin/env python3
import sys
OFFSETS = {
    "tokyo": 9,
    "london": 0,
    "new-york": -5,
    "sydney": 11,
    "mumbai": 5.5,
}
time, city = sys.argv[1], sys.argv[2]
if city not in OFFSETS:
    sys.exit(f"no such city: {city}")
h, m = map(int, time.split(":"))
total = (h * 60 + m + int(OFFSETS[city] * 60)) % (24 * 60)
print(f"{time} UTC is {total // 60:02d}:{total % 60:02d} in {city}")

#!/usr/bin/env python3
import math, sys
C = {"par": (48.8566, 2.3522), "ber": (52.52, 13.405), "mad": (40.4168, -3.7038), "rom": (41.9028, 12.4964), "vie": (48.2082, 16.3738)}
a, b = sys.argv[1:3]
for k in (a, b):
    if k not in C:
        sys.exit(f"unknown city key {k!r}; known: {', '.join(C)}")
(la1, lo1), (la2, lo2) = (map(math.radians, C[k]) for k in (a, b))
h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
print(f"{a} to {b}: {2 * 6371 * math.asin(math.sqrt(h)):.0f} km")

#!/usr/bin/env python3
import sys
n = int(sys.argv[1])
suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
print(f"{n}{suffix}")

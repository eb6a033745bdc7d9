#!/usr/bin/env python3
import sys
y = int(sys.argv[1])
leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
print(f"{y} is {'a leap year' if leap else 'not a leap year'}")

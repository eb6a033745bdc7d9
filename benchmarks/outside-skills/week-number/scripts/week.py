#!/usr/bin/env python3
import sys
from datetime import date
d = date.fromisoformat(sys.argv[1])
y, w, _ = d.isocalendar()
print(f"{d} is in week {w} of {y}")

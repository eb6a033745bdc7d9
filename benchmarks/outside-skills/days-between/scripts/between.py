#!/usr/bin/env python3
import sys
from datetime import date
a, b = (date.fromisoformat(x) for x in sys.argv[1:3])
print(f"{(b - a).days} days from {a} to {b}")

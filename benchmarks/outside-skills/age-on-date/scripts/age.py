#!/usr/bin/env python3
import sys
from datetime import date
birth, on = (date.fromisoformat(a) for a in sys.argv[1:3])
years = on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))
print(f"born {birth}, on {on}: {years} years old")

#!/usr/bin/env python3
import sys
km, minutes = float(sys.argv[1]), float(sys.argv[2])
sec = round(minutes * 60 / km)
print(f"{km:g} km in {minutes:g} min: {sec // 60}:{sec % 60:02d} per km")

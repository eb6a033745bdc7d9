#!/usr/bin/env python3
import sys
PER_MIN = {"walking": 4, "running": 11, "cycling": 8}
activity, minutes = sys.argv[1], int(sys.argv[2])
if activity not in PER_MIN:
    sys.exit(f"unknown activity: {activity}")
print(f"{activity} for {minutes} min burns about {PER_MIN[activity] * minutes} kcal")

#!/usr/bin/env python3
import sys

POINTS = {"A+": 4.0, "A": 4.0, "A-": 3.7, "B+": 3.3, "B": 3.0, "B-": 2.7, "C+": 2.3, "C": 2.0,
          "C-": 1.7, "D+": 1.3, "D": 1.0, "F": 0.0}

courses = sys.argv[1:]
if not courses:
    sys.exit("usage: gpa.py GRADE:CREDITS [GRADE:CREDITS ...]")
total_points = total_credits = 0.0
for item in courses:
    grade, sep, credits = item.partition(":")
    grade = grade.strip().upper()
    if not sep:
        sys.exit(f"gpa.py: {item!r} is not GRADE:CREDITS")
    if grade not in POINTS:
        sys.exit(f"gpa.py: unknown grade {grade!r} in {item!r}")
    try:
        hours = float(credits)
    except ValueError:
        sys.exit(f"gpa.py: credits must be a number in {item!r}")
    total_points += POINTS[grade] * hours
    total_credits += hours
print(f"GPA {total_points / total_credits:.2f} over {total_credits:g} credits "
      f"({total_points:.1f} grade points)")

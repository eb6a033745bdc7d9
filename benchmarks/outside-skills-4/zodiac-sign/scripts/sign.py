#!/usr/bin/env python3
import sys

# (last month, last day, sign, element): a sign runs until that date inclusive
SIGNS = [
    (1, 19, "Capricorn", "earth"), (2, 18, "Aquarius", "air"), (3, 20, "Pisces", "water"),
    (4, 19, "Aries", "fire"), (5, 20, "Taurus", "earth"), (6, 20, "Gemini", "air"),
    (7, 22, "Cancer", "water"), (8, 22, "Leo", "fire"), (9, 22, "Virgo", "earth"),
    (10, 22, "Libra", "air"), (11, 21, "Scorpio", "water"), (12, 21, "Sagittarius", "fire"),
    (12, 31, "Capricorn", "earth"),
]
DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

if len(sys.argv) != 3:
    sys.exit("usage: sign.py MONTH DAY")
try:
    month, day = int(sys.argv[1]), int(sys.argv[2])
except ValueError:
    sys.exit("sign.py: MONTH and DAY must be numbers, e.g. 7 14 for 14 July")
if not 1 <= month <= 12 or not 1 <= day <= DAYS[month - 1]:
    sys.exit(f"sign.py: {month}/{day} is not a date (MONTH 1-12, then DAY)")
for last_month, last_day, sign, element in SIGNS:
    if (month, day) <= (last_month, last_day):
        print(f"{sign} ({element} sign)")
        break

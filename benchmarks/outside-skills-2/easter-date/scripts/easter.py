#!/usr/bin/env python3
import datetime
import sys


def easter(year):
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return datetime.date(year, month, day + 1)


if len(sys.argv) != 2 or not sys.argv[1].isdigit():
    sys.exit("usage: easter.py YEAR   (a year such as 2031)")
year = int(sys.argv[1])
if year < 1583:
    sys.exit("error: YEAR must be 1583 or later (the Gregorian calendar)")
date = easter(year)
print(f"Easter Sunday {year}: {date.isoformat()} ({date.strftime('%d %B')})")

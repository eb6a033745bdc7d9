#!/usr/bin/env python3
import sys

YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789"  # 1980..2009, then again from 2010
REGIONS = {
    "1": "North America (United States)", "4": "North America (United States)",
    "5": "North America (United States)", "2": "North America (Canada)",
    "3": "North America (Mexico)", "J": "Asia (Japan)", "K": "Asia (South Korea)",
    "L": "Asia (China)", "S": "Europe (United Kingdom)", "V": "Europe (France/Spain)",
    "W": "Europe (Germany)", "Y": "Europe (Sweden/Finland)", "Z": "Europe (Italy)",
}
WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
VALUES = {**{str(d): d for d in range(10)},
          **dict(zip("ABCDEFGH", range(1, 9))), **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
          **dict(zip("STUVWXYZ", range(2, 10)))}

if len(sys.argv) != 2:
    sys.exit("usage: vin.py VIN")
vin = sys.argv[1].strip().upper()
if len(vin) != 17:
    sys.exit(f"vin.py: a VIN has 17 characters, {vin!r} has {len(vin)}")
if any(c in "IOQ" or c not in VALUES for c in vin):
    sys.exit(f"vin.py: {vin!r} has characters a VIN never uses (I, O, Q or punctuation)")
code = vin[9]
if code not in YEAR_CODES:
    sys.exit(f"vin.py: the 10th character {code!r} is not a model-year code")
year = 1980 + YEAR_CODES.index(code)
if vin[6].isalpha():
    year += 30
check = sum(VALUES[c] * w for c, w in zip(vin, WEIGHTS)) % 11
expected = "X" if check == 10 else str(check)
region = REGIONS.get(vin[0], "another region")
print(f"VIN {vin}: model year {year}, made in {region}")
if vin[8] != expected:
    print(f"note: check digit is {vin[8]}, expected {expected}; the year may not follow the North American rule")

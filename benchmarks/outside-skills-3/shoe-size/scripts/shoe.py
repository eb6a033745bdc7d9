#!/usr/bin/env python3
import argparse
import sys

# Everything goes through the last length in cm (foot length plus 1.5 cm of allowance).
NAMES = {"eu": "EU", "uk": "UK", "usm": "US men's", "usw": "US women's", "cm": "foot length cm"}
TO_LAST = {
    "eu": lambda s: s / 1.5,
    "uk": lambda s: (s + 25) / 3 * 2.54,
    "usm": lambda s: (s - 1 + 25) / 3 * 2.54,
    "usw": lambda s: (s - 2 + 25) / 3 * 2.54,
    "cm": lambda s: s + 1.5,
}
FROM_LAST = {
    "eu": lambda last: round(last * 1.5),
    "uk": lambda last: round((last / 2.54 * 3 - 25) * 2) / 2,
    "usm": lambda last: round((last / 2.54 * 3 - 25 + 1) * 2) / 2,
    "usw": lambda last: round((last / 2.54 * 3 - 25 + 2) * 2) / 2,
    "cm": lambda last: round(last - 1.5, 1),
}

parser = argparse.ArgumentParser(description="Convert shoe sizes.")
parser.add_argument("size", type=float)
parser.add_argument("--from", dest="src", required=True)
parser.add_argument("--to", dest="dst", required=True)
args = parser.parse_args()
for flag, code in (("--from", args.src), ("--to", args.dst)):
    if code not in NAMES:
        sys.exit(f"shoe.py: {flag} {code!r} is not a sizing system; use one of: {', '.join(NAMES)}")
last = TO_LAST[args.src](args.size)
if not 20 <= last <= 34:
    sys.exit(f"shoe.py: {args.size:g} is not an adult {NAMES[args.src]} size")
print(f"{NAMES[args.src]} {args.size:g} = {NAMES[args.dst]} {FROM_LAST[args.dst](last):g}")

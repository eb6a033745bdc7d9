#!/usr/bin/env python3
import re
import sys

# iso: (name, calling code, trunk prefix or "")
COUNTRIES = {
    "au": ("Australia", "61", "0"), "br": ("Brazil", "55", "0"), "ca": ("Canada", "1", "1"),
    "fr": ("France", "33", "0"), "de": ("Germany", "49", "0"), "in": ("India", "91", "0"),
    "ie": ("Ireland", "353", "0"), "it": ("Italy", "39", ""), "jp": ("Japan", "81", "0"),
    "mx": ("Mexico", "52", ""), "nl": ("Netherlands", "31", "0"), "nz": ("New Zealand", "64", "0"),
    "pt": ("Portugal", "351", ""), "za": ("South Africa", "27", "0"), "es": ("Spain", "34", ""),
    "ch": ("Switzerland", "41", "0"), "gb": ("United Kingdom", "44", "0"),
    "us": ("United States", "1", "1"),
}

if len(sys.argv) not in (2, 3):
    sys.exit("usage: dial.py CODE [LOCAL_NUMBER]")
code = sys.argv[1].lower()
if len(code) != 2 or not code.isalpha():
    sys.exit(f"dial.py: {sys.argv[1]!r} is not a two-letter country code")
if code not in COUNTRIES:
    sys.exit(f"dial.py: no data for country code {code!r}")
name, calling, trunk = COUNTRIES[code]
print(f"{name}: calling code +{calling}" + (f", drop the leading {trunk} of local numbers" if trunk else ""))
print("from abroad dial your exit prefix (00 in most countries, 011 from North America) or +, "
      f"then {calling}")
if len(sys.argv) == 3:
    digits = re.sub(r"[^\d]", "", sys.argv[2])
    if trunk and digits.startswith(trunk):
        digits = digits[len(trunk):]
    print(f"international form: +{calling} {digits}")

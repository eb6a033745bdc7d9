#!/usr/bin/env python3
import re
import sys

PARTS = ("major", "minor", "patch")

if len(sys.argv) != 3:
    sys.exit("usage: bump.py VERSION PART   (PART: major, minor or patch)")
version, part = sys.argv[1].lstrip("v"), sys.argv[2].lower()
m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?", version)
if not m:
    sys.exit(f"error: {sys.argv[1]!r} is not a MAJOR.MINOR.PATCH version like 1.4.2")
if part not in PARTS:
    sys.exit(f"error: PART must be major, minor or patch, not {sys.argv[2]!r}")
major, minor, patch = map(int, m.groups())
if part == "major":
    major, minor, patch = major + 1, 0, 0
elif part == "minor":
    minor, patch = minor + 1, 0
else:
    patch += 1
print(f"{version} -> {major}.{minor}.{patch} ({part})")

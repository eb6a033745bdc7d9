#!/usr/bin/env python3
import sys

if len(sys.argv) > 1:
    sys.exit("error: dedupe.py takes no arguments, it reads standard input: cat FILE | python3 scripts/dedupe.py")
if sys.stdin.isatty():
    sys.exit("error: dedupe.py reads standard input; pipe a file into it: cat FILE | python3 scripts/dedupe.py")
seen = set()
kept = removed = 0
for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    key = line.lower()
    if key in seen:
        removed += 1
        continue
    seen.add(key)
    kept += 1
    print(line)
if kept == 0:
    sys.exit("error: no lines on standard input; pipe a file into it: cat FILE | python3 scripts/dedupe.py")
print(f"-- kept {kept} lines, removed {removed} duplicates")

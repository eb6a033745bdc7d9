#!/usr/bin/env python3
import argparse
import re
import sys

TAGS = ["TODO", "FIXME", "HACK", "XXX"]

parser = argparse.ArgumentParser(prog="todo.py", description="Count TODO-style markers in a file.")
parser.add_argument("path")
parser.add_argument("--tag", action="append", type=str.upper)
args = parser.parse_args()
tags = args.tag or TAGS
for tag in tags:
    if tag not in TAGS:
        parser.error(f"--tag {tag!r}: not a marker this script counts")
try:
    with open(args.path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
except OSError as exc:
    sys.exit(f"todo.py: cannot read {args.path}: {exc.strerror}")
pattern = re.compile(r"\b(" + "|".join(tags) + r")\b:?\s*(.*)")
counts = dict.fromkeys(tags, 0)
hits = []
for number, line in enumerate(lines, 1):
    match = pattern.search(line)
    if match:
        counts[match.group(1)] += 1
        hits.append(f"  {number:>4}  {match.group(1)}: {match.group(2).rstrip(' */')}")
print(", ".join(f"{tag} {counts[tag]}" for tag in tags))
print("\n".join(hits))

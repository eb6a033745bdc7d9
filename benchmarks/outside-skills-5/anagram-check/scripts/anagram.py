#!/usr/bin/env python3
import argparse
from collections import Counter

parser = argparse.ArgumentParser(prog="anagram.py")
parser.add_argument("first")
parser.add_argument("second")
args = parser.parse_args()

a = Counter(ch for ch in args.first.lower() if ch.isalpha())
b = Counter(ch for ch in args.second.lower() if ch.isalpha())
if a == b:
    print(f"yes: {args.first!r} and {args.second!r} use the same {sum(a.values())} letters")
else:
    extra_a = "".join(sorted((a - b).elements())) or "-"
    extra_b = "".join(sorted((b - a).elements())) or "-"
    print(f"no: {args.first!r} has extra {extra_a}; {args.second!r} has extra {extra_b}")

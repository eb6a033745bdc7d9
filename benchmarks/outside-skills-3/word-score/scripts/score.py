#!/usr/bin/env python3
"""Scrabble score of a word (English tile values)."""
import argparse
import sys

VALUES = {}
for letters, points in (("AEIOULNSTR", 1), ("DG", 2), ("BCMP", 3), ("FHVWY", 4),
                        ("K", 5), ("JX", 8), ("QZ", 10)):
    for letter in letters:
        VALUES[letter] = points

parser = argparse.ArgumentParser(description="Score a word in Scrabble.")
parser.add_argument("word")
group = parser.add_mutually_exclusive_group()
group.add_argument("--double", action="store_true", help="double word square")
group.add_argument("--triple", action="store_true", help="triple word square")
args = parser.parse_args()

word = args.word.upper()
if not word.isalpha() or not word.isascii():
    sys.exit(f"score.py: error: {args.word!r} is not a word: use the letters A-Z only")
total = sum(VALUES[c] for c in word)
factor = 3 if args.triple else 2 if args.double else 1
note = {1: "", 2: " (double word)", 3: " (triple word)"}[factor]
print(f"{word}: {total * factor} points{note}")

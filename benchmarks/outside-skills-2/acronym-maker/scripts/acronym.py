#!/usr/bin/env python3
"""usage: acronym.py "PHRASE" [--keep-small]"""
import argparse
import re

SMALL = {"a", "an", "and", "for", "in", "of", "on", "the", "to"}

parser = argparse.ArgumentParser(description="Make an acronym from a phrase.")
parser.add_argument("phrase", nargs="+", help="the phrase, in quotes")
parser.add_argument("--keep-small", action="store_true", help="keep small words like 'of'")
args = parser.parse_args()
words = re.findall(r"[A-Za-z0-9]+", " ".join(args.phrase))
if not args.keep_small:
    words = [w for w in words if w.lower() not in SMALL]
if len(words) < 2:
    parser.error("the phrase needs at least two words that count")
print("".join(w[0].upper() for w in words))

#!/usr/bin/env python3
import argparse
import json
import re
import sys


def syllables(word):
    word = word.lower()
    groups = re.findall(r"[aeiouy]+", word)
    n = len(groups)
    if word.endswith("e") and not word.endswith(("le", "ee")) and n > 1:
        n -= 1
    return max(1, n)


parser = argparse.ArgumentParser(prog="flesch.py")
parser.add_argument("file")
parser.add_argument("--json", action="store_true")
args = parser.parse_args()
try:
    with open(args.file, encoding="utf-8") as fh:
        text = fh.read()
except OSError as exc:
    sys.exit(f"flesch.py: cannot read {args.file}: {exc.strerror}")
words = re.findall(r"[A-Za-z]+(?:'[A-Za-z]+)?", text)
sentences = max(1, len(re.findall(r"[.!?]+(?:\s|$)", text)))
if not words:
    sys.exit("flesch.py: no words in the file")
syl = sum(syllables(w) for w in words)
ease = 206.835 - 1.015 * len(words) / sentences - 84.6 * syl / len(words)
grade = 0.39 * len(words) / sentences + 11.8 * syl / len(words) - 15.59
result = {"words": len(words), "sentences": sentences, "syllables": syl,
          "reading_ease": round(ease, 1), "grade": round(grade, 1)}
if args.json:
    print(json.dumps(result))
else:
    print(f"{len(words)} words, {sentences} sentences, {syl} syllables")
    print(f"Flesch reading ease {ease:.1f}")
    print(f"Flesch-Kincaid grade {grade:.1f}")

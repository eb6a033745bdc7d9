#!/usr/bin/env python3
import re
import sys


def syllables(word):
    w = word.lower()
    groups = len(re.findall(r"[aeiouy]+", w))
    if w.endswith("e") and not w.endswith(("le", "ee", "ye")) and groups > 1:
        groups -= 1
    if w.endswith("es") and groups > 1 and not re.search(r"(ss|x|z|ch|sh|ce|ge|se)es$", w):
        groups -= 1
    return max(groups, 1)


if len(sys.argv) > 1:
    sys.exit("usage: echo 'TEXT' | python3 scripts/syllables.py   (the text goes on stdin, not as arguments)")
lines = [line.strip() for line in sys.stdin if line.strip()]
if not lines:
    sys.exit("syllables.py: no text on stdin; pipe a line in with echo")
for line in lines:
    words = re.findall(r"[A-Za-z']+", line)
    counts = [(w, syllables(w.replace("'", ""))) for w in words]
    total = sum(n for _, n in counts)
    detail = " ".join(f"{w}({n})" for w, n in counts)
    print(f"{total} syllables: {detail}")

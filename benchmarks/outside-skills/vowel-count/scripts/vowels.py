#!/usr/bin/env python3
import sys
text = " ".join(sys.argv[1:]).lower()
v = sum(c in "aeiou" for c in text)
c = sum(c.isalpha() and c not in "aeiou" for c in text)
print(f"{v} vowels, {c} consonants")

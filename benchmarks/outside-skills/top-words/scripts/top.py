#!/usr/bin/env python3
import argparse, collections, re
p = argparse.ArgumentParser()
p.add_argument("file")
p.add_argument("--top", type=int, default=5)
a = p.parse_args()
words = re.findall(r"[a-z']+", open(a.file, encoding="utf-8").read().lower())
for word, n in collections.Counter(words).most_common(a.top):
    print(f"{word}: {n}")

#!/usr/bin/env python3
import argparse, textwrap
p = argparse.ArgumentParser()
p.add_argument("--width", type=int, required=True)
p.add_argument("file")
a = p.parse_args()
text = " ".join(open(a.file, encoding="utf-8").read().split())
lines = textwrap.wrap(text, a.width)
print("\n".join(lines))
print(f"({len(lines)} lines at width {a.width})")

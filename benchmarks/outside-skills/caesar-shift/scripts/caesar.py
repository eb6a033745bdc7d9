#!/usr/bin/env python3
import argparse
p = argparse.ArgumentParser()
p.add_argument("--shift", type=int, required=True)
p.add_argument("message")
a = p.parse_args()
out = "".join(chr((ord(c) - b + a.shift) % 26 + b) if c.isalpha() else c
              for c in a.message for b in [65 if c.isupper() else 97])
print(out)

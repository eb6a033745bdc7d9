#!/usr/bin/env python3
import argparse

parser = argparse.ArgumentParser(prog="vigenere.py")
parser.add_argument("text")
parser.add_argument("--key", required=True)
parser.add_argument("-d", "--decrypt", action="store_true")
args = parser.parse_args()
if not args.key.isalpha():
    parser.error(f"--key must be letters only, not {args.key!r}")
shifts = [ord(c) - ord("a") for c in args.key.lower()]
sign = -1 if args.decrypt else 1
out, i = [], 0
for ch in args.text:
    if ch.isascii() and ch.isalpha():
        base = ord("A") if ch.isupper() else ord("a")
        out.append(chr((ord(ch) - base + sign * shifts[i % len(shifts)]) % 26 + base))
        i += 1
    else:
        out.append(ch)
print("".join(out))

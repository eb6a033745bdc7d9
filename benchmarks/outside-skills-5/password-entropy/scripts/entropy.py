#!/usr/bin/env python3
"""Brute-force entropy of a password from its length and character classes."""
import argparse
import math
import string

CLASSES = [
    ("lowercase", set(string.ascii_lowercase)),
    ("uppercase", set(string.ascii_uppercase)),
    ("digits", set(string.digits)),
    ("symbols", set(string.punctuation + " ")),
]

parser = argparse.ArgumentParser(
    prog="entropy.py",
    description="Estimate the brute-force entropy of a password (length x log2 of the character pool).")
parser.add_argument("password", help="the password; quote it if it has spaces or symbols")
parser.add_argument("--guesses", type=float, default=1e10,
                    help="attacker's guesses per second for the crack-time estimate (default 1e10)")
args = parser.parse_args()

pw = args.password
pool, used = 0, []
for name, chars in CLASSES:
    if any(ch in chars for ch in pw):
        pool += len(chars)
        used.append(name)
if any(ord(ch) > 127 for ch in pw):
    pool += 100
    used.append("other")
if not pw:
    parser.error("the password is empty")
bits = len(pw) * math.log2(pool)
seconds = 2 ** bits / 2 / args.guesses
years = seconds / (365.25 * 86400)
verdict = "weak" if bits < 50 else "fair" if bits < 80 else "strong"
print(f"length {len(pw)}, pool {pool} ({', '.join(used)})")
print(f"entropy {bits:.1f} bits ({verdict})")
print(f"average time to crack at {args.guesses:g} guesses/s: {years:.3g} years")

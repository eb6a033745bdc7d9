#!/usr/bin/env python3
import sys


def main(argv):
    if len(argv) != 1:
        print("usage: isbn13.py ISBN10", file=sys.stderr)
        return 2
    raw = argv[0]
    chars = raw.replace("-", "").replace(" ", "").upper()
    if len(chars) != 10 or not chars[:9].isdigit() or not (chars[9].isdigit() or chars[9] == "X"):
        print(f"isbn13.py: {raw!r} is not an ISBN-10 (nine digits and a digit or X)", file=sys.stderr)
        return 1
    digits = [int(c) for c in chars[:9]] + [10 if chars[9] == "X" else int(chars[9])]
    if sum((10 - i) * d for i, d in enumerate(digits)) % 11:
        print(f"isbn13.py: {raw!r} fails the ISBN-10 check digit; re-check the number", file=sys.stderr)
        return 1
    body = "978" + chars[:9]
    check = (10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body)) % 10) % 10
    print(f"ISBN-13: {body}{check}")
    return 0


sys.exit(main(sys.argv[1:]))

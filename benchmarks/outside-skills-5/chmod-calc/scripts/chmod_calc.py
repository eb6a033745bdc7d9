#!/usr/bin/env python3
"""Symbolic <-> octal Unix permissions."""
import re
import sys

WHO = ("owner", "group", "other")


def describe(bits):
    words = [name for flag, name in ((4, "read"), (2, "write"), (1, "execute")) if bits & flag]
    return ", ".join(words) or "none"


def from_symbolic(text):
    digits, special = [], 0
    for i, chunk in enumerate((text[0:3], text[3:6], text[6:9])):
        if chunk[0] not in "r-" or chunk[1] not in "w-" or chunk[2] not in "xsStT-":
            raise ValueError
        value = (4 if chunk[0] == "r" else 0) + (2 if chunk[1] == "w" else 0)
        if chunk[2] in "xst":
            value += 1
        if chunk[2] in "sStT":
            special += (4, 2, 1)[i]
        digits.append(value)
    return special, digits


def to_symbolic(special, digits):
    out = ""
    for i, d in enumerate(digits):
        x = "x" if d & 1 else "-"
        if special & (4, 2, 1)[i]:
            x = ("s" if i < 2 else "t") if d & 1 else ("S" if i < 2 else "T")
        out += ("r" if d & 4 else "-") + ("w" if d & 2 else "-") + x
    return out


def main(argv):
    if len(argv) != 1:
        print("usage: chmod_calc.py MODE   (e.g. 755 or rwxr-xr-x)", file=sys.stderr)
        return 2
    mode = argv[0]
    if re.fullmatch(r"[0-7]{3,4}", mode):
        special = int(mode[0]) if len(mode) == 4 else 0
        digits = [int(c) for c in mode[-3:]]
        print(f"{mode} = {to_symbolic(special, digits)}")
    elif len(mode) == 9:
        try:
            special, digits = from_symbolic(mode)
        except ValueError:
            print(f"chmod_calc.py: {mode!r} is not a permission string like rwxr-x---", file=sys.stderr)
            return 1
        octal = "".join(str(d) for d in digits)
        print(f"{mode} = {special}{octal}" if special else f"{mode} = {octal}")
    else:
        print(f"chmod_calc.py: {mode!r} is not a permission string like rwxr-x--- or an octal mode",
              file=sys.stderr)
        return 1
    for who, d in zip(WHO, digits):
        print(f"  {who}: {describe(d)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

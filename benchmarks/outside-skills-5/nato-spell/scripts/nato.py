#!/usr/bin/env python3
# /// script
# requires-python = ">=3.9"
# dependencies = []
# ///
"""Spell a word in the NATO phonetic alphabet."""
import sys

CODE = {
    "a": "Alfa", "b": "Bravo", "c": "Charlie", "d": "Delta", "e": "Echo", "f": "Foxtrot",
    "g": "Golf", "h": "Hotel", "i": "India", "j": "Juliett", "k": "Kilo", "l": "Lima",
    "m": "Mike", "n": "November", "o": "Oscar", "p": "Papa", "q": "Quebec", "r": "Romeo",
    "s": "Sierra", "t": "Tango", "u": "Uniform", "v": "Victor", "w": "Whiskey", "x": "X-ray",
    "y": "Yankee", "z": "Zulu", "0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four",
    "5": "Five", "6": "Six", "7": "Seven", "8": "Eight", "9": "Niner", "-": "(hyphen)",
}


def main(argv):
    if len(argv) != 1 or argv[0].startswith("--"):
        print("usage: nato.py WORD", file=sys.stderr)
        return 2
    word = argv[0]
    bad = sorted({ch for ch in word.lower() if ch not in CODE})
    if bad:
        print(f"nato.py: cannot spell {' '.join(repr(ch) for ch in bad)}; one word of letters, digits and hyphens",
              file=sys.stderr)
        return 1
    print(" ".join(CODE[ch] for ch in word.lower()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

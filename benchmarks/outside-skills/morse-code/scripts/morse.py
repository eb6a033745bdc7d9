#!/usr/bin/env python3
import sys
T = {"A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.", "H": "....", "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.", "O": "---", "P": ".--.", "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-", "V": "...-", "W": ".--", "X": "-..-", "Y": "-.--", "Z": "--.."}
if len(sys.argv) != 3 or sys.argv[1] not in ("encode", "decode"):
    sys.exit("usage: morse.py {encode,decode} TEXT")
if sys.argv[1] == "encode":
    print(" / ".join(" ".join(T[c] for c in w if c in T) for w in sys.argv[2].upper().split()))
else:
    back = {v: k for k, v in T.items()}
    print(" ".join("".join(back.get(c, "?") for c in w.split()) for w in sys.argv[2].split(" / ")))

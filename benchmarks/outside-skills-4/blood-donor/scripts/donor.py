#!/usr/bin/env python3
import sys

TYPES = ["O-", "O+", "A-", "A+", "B-", "B+", "AB-", "AB+"]


def can_give(donor, recipient):
    d_abo, d_rh = donor[:-1], donor[-1]
    r_abo, r_rh = recipient[:-1], recipient[-1]
    abo_ok = d_abo == "O" or d_abo == r_abo or r_abo == "AB"
    rh_ok = d_rh == "-" or r_rh == "+"
    return abo_ok and rh_ok


if len(sys.argv) != 2:
    sys.exit("usage: donor.py TYPE")
blood = sys.argv[1].strip().upper()
if blood not in TYPES:
    sys.exit(f"donor.py: unknown blood type {sys.argv[1]!r}; use one of {' '.join(TYPES)}")
give = [t for t in TYPES if can_give(blood, t)]
receive = [t for t in TYPES if can_give(t, blood)]
print(f"{blood} can give red cells to: {', '.join(give)}")
print(f"{blood} can receive red cells from: {', '.join(receive)}")

#!/usr/bin/env python3
"""Prints the words of its one argument in reverse order."""

import sys

if len(sys.argv) != 2:
    print("usage: reverse.py PHRASE (one argument: quote a phrase of several words)", file=sys.stderr)
    sys.exit(2)
print(" ".join(reversed(sys.argv[1].split())))

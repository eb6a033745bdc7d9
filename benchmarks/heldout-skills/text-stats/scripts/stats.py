#!/usr/bin/env python3
"""Counts the lines, words and characters of a text file."""

import sys
from pathlib import Path

if len(sys.argv) != 2:
    print("usage: stats.py PATH", file=sys.stderr)
    sys.exit(2)
path = Path(sys.argv[1])
try:
    text = path.read_text(encoding="utf-8")
except OSError as exc:
    print(f"cannot read {path}: {exc.strerror}", file=sys.stderr)
    sys.exit(1)
print(f"{path}: {len(text.splitlines())} lines, {len(text.split())} words, {len(text)} characters")

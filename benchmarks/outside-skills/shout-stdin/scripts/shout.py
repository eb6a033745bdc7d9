#!/usr/bin/env python3
import sys
text = sys.stdin.read().strip()
print(text.upper())
print(f"{len(text)} characters")

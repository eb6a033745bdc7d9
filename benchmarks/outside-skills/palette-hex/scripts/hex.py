#!/usr/bin/env python3
import sys
PALETTE = {"harbour-blue": "#1f5f8b", "ripe-tomato": "#e5533d", "moss-green": "#5b7a3a", "sand-dune": "#d8c39a"}
names = sys.argv[1:]
if len(names) != 1 or names[0] not in PALETTE:
    sys.exit(f"unknown palette name {names}; known: {', '.join(PALETTE)}")
print(f"{names[0]}: {PALETTE[names[0]]}")

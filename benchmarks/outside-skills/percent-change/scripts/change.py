#!/usr/bin/env python3
import sys
old, new = float(sys.argv[1]), float(sys.argv[2])
print(f"from {old:g} to {new:g}: {(new - old) / old * 100:+.1f}%")

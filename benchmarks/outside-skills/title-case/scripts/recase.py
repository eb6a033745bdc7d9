#!/usr/bin/env python3
import sys
if len(sys.argv) != 3 or sys.argv[1] not in ("upper", "lower", "title"):
    print("usage: recase.py {upper,lower,title} TEXT", file=sys.stderr)
    sys.exit(2)
print(getattr(sys.argv[2], sys.argv[1])())

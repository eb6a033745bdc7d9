#!/usr/bin/env python3
"""Rewrites a phrase in a naming style: snake, camel, pascal, kebab or constant."""

import re
import sys
from collections.abc import Callable

STYLES: dict[str, Callable[[list[str]], str]] = {
    "snake": lambda w: "_".join(x.lower() for x in w),
    "camel": lambda w: w[0].lower() + "".join(x.capitalize() for x in w[1:]),
    "pascal": lambda w: "".join(x.capitalize() for x in w),
    "kebab": lambda w: "-".join(x.lower() for x in w),
    "constant": lambda w: "_".join(x.upper() for x in w),
}

if len(sys.argv) != 3 or sys.argv[1] not in STYLES:
    print(f"usage: case.py STYLE TEXT, STYLE one of: {', '.join(STYLES)}", file=sys.stderr)
    sys.exit(2)
words = re.findall(r"[A-Za-z0-9]+", sys.argv[2])
if not words:
    print("TEXT has no words", file=sys.stderr)
    sys.exit(2)
print(STYLES[sys.argv[1]](words))

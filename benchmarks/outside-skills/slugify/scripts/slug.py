#!/usr/bin/env python3
import re, sys
if len(sys.argv) != 2:
    sys.exit("usage: slug.py TITLE (quote it)")
print(re.sub(r"[^a-z0-9]+", "-", sys.argv[1].lower()).strip("-"))

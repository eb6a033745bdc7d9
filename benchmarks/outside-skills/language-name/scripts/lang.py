#!/usr/bin/env python3
import sys
NAMES = {"de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch", "pt": "Portuguese", "fi": "Finnish"}
code = sys.argv[1]
if code not in NAMES:
    sys.exit(f"unknown code {code!r}")
print(f"{code}: {NAMES[code]}")

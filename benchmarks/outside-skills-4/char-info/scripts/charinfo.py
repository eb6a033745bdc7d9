#!/usr/bin/env python3
import sys
import unicodedata

if len(sys.argv) != 2:
    sys.exit("usage: charinfo.py CHAR")
text = sys.argv[1]
if len(text) != 1:
    sys.exit(f"charinfo.py: expected exactly one character, got {len(text)} ({text!r})")
name = unicodedata.name(text, "<no name>")
utf8 = " ".join(f"{b:02x}" for b in text.encode("utf-8"))
print(f"U+{ord(text):04X}  {name}  ({unicodedata.category(text)})  UTF-8: {utf8}")

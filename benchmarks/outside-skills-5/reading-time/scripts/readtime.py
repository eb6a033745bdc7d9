#!/usr/bin/env python3
import os
import re
import sys


def speed(name, default):
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        sys.exit(f"readtime.py: {name} must be a number of words per minute, not {raw!r}")
    if value <= 0:
        sys.exit(f"readtime.py: {name} must be more than 0")
    return value


if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
    sys.exit("usage: readtime.py FILE   (speeds come from READING_WPM and SPEAKING_WPM)")
try:
    with open(sys.argv[1], encoding="utf-8") as fh:
        text = fh.read()
except OSError as exc:
    sys.exit(f"readtime.py: cannot read {sys.argv[1]}: {exc.strerror}")
text = re.sub(r"```.*?```", " ", text, flags=re.S)
text = re.sub(r"https?://\S+", " ", text)
words = len(re.findall(r"[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*", text))
read_wpm, speak_wpm = speed("READING_WPM", 238.0), speed("SPEAKING_WPM", 150.0)


def mins(n):
    total = round(n * 60)
    return f"{total // 60} min {total % 60:02d} s"


print(f"{words} words")
print(f"reading at {read_wpm:g} wpm: {mins(words / read_wpm)}")
print(f"aloud at {speak_wpm:g} wpm: {mins(words / speak_wpm)}")

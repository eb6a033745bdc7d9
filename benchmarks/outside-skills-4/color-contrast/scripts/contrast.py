#!/usr/bin/env python3
import re
import sys


def luminance(hex_colour):
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = []
    for i in (0, 2, 4):
        c = int(digits[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


if len(sys.argv) != 3:
    sys.exit("usage: contrast.py FOREGROUND BACKGROUND")
for colour in sys.argv[1:]:
    if not re.fullmatch(r"#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", colour):
        sys.exit(f"contrast.py: {colour!r} is not a hex colour like #1a2b3c or #fff")
fg, bg = (luminance(c) for c in sys.argv[1:])
ratio = (max(fg, bg) + 0.05) / (min(fg, bg) + 0.05)
ratio = int(ratio * 100) / 100  # WCAG: do not round up to a pass


def verdict(threshold):
    return "pass" if ratio >= threshold else "fail"


print(f"contrast {ratio:.2f}:1")
print(f"AA normal {verdict(4.5)}, AA large {verdict(3)}, AAA normal {verdict(7)}, AAA large {verdict(4.5)}")

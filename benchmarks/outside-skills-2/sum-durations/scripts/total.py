#!/usr/bin/env python3
import re
import sys

PATTERN = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")

if len(sys.argv) < 2:
    sys.exit("usage: total.py DURATION [DURATION ...]   e.g. total.py 1h20m 45m 30s")
seconds = 0
for arg in sys.argv[1:]:
    m = PATTERN.fullmatch(arg.strip().lower())
    if not arg.strip() or not m or not any(m.groups()):
        sys.exit(f"error: cannot read duration {arg!r}; write it like 1h20m, 45m or 30s (no spaces)")
    h, mi, s = (int(g or 0) for g in m.groups())
    seconds += h * 3600 + mi * 60 + s
h, rest = divmod(seconds, 3600)
mi, s = divmod(rest, 60)
text = f"{h}h{mi:02d}m" + (f"{s:02d}s" if s else "")
print(f"total of {len(sys.argv) - 1}: {text}")

#!/usr/bin/env python3
"""Count log lines per level. Reads the log on stdin."""
import argparse
import re
import sys

LINE = re.compile(r"^\d{4}-\d{2}-\d{2} (\d{2}:\d{2}):\d{2} (DEBUG|INFO|WARN|ERROR|CRITICAL)\b")
ORDER = ["DEBUG", "INFO", "WARN", "ERROR", "CRITICAL"]


def hhmm(text):
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a 24-hour time HH:MM (e.g. 14:30)")
    return text


parser = argparse.ArgumentParser(description="Count log lines per level (log on stdin).")
parser.add_argument("--since", type=hhmm, help="only lines at or after HH:MM")
args, extra = parser.parse_known_args()
if extra:
    parser.error(f"unexpected argument(s) {' '.join(extra)}: the log is read from standard input, "
                 "e.g. cat app.log | python3 scripts/levels.py")
if sys.stdin.isatty():
    parser.error("no log on standard input: pipe the file in (cat app.log | python3 scripts/levels.py)")

counts = dict.fromkeys(ORDER, 0)
for raw in sys.stdin:
    match = LINE.match(raw)
    if match and (args.since is None or match.group(1) >= args.since):
        counts[match.group(2)] += 1
scope = f"since {args.since}" if args.since else "all lines"
print(f"{scope}: " + ", ".join(f"{level} {counts[level]}" for level in ORDER))

#!/usr/bin/env python3
import argparse
import re
import sys

parser = argparse.ArgumentParser(prog="toc.py")
parser.add_argument("file")
parser.add_argument("--depth", type=int, default=2)
parser.add_argument("--with-title", action="store_true")
args = parser.parse_args()
try:
    with open(args.file, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
except OSError as exc:
    sys.exit(f"toc.py: cannot read {args.file}: {exc.strerror}")

seen = {}
fence = False
top = 1 if args.with_title else 2
for line in lines:
    if line.lstrip().startswith(("```", "~~~")):
        fence = not fence
        continue
    m = None if fence else re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line)
    if not m:
        continue
    level, title = len(m[1]), m[2]
    slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    anchor = slug if n == 0 else f"{slug}-{n}"
    if top <= level <= args.depth:
        print(f"{'  ' * (level - top)}- [{title}](#{anchor})")

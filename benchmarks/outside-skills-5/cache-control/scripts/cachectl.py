#!/usr/bin/env python3
import argparse
import re


def span(seconds):
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    parts = [f"{h} h" if h else "", f"{m} min" if m else "", f"{s} s" if s else ""]
    return " ".join(p for p in parts if p) or "0 s"


parser = argparse.ArgumentParser(prog="cachectl.py")
parser.add_argument("header")
parser.add_argument("--shared", action="store_true", help="a shared cache (CDN, proxy)")
parser.add_argument("--age", type=int, default=0)
args = parser.parse_args()

text = re.sub(r"(?i)^\s*cache-control\s*:", "", args.header)
directives, ignored = {}, []
for item in filter(None, (p.strip() for p in text.split(","))):
    key, _, value = item.partition("=")
    key = key.strip().lower()
    value = value.strip().strip('"')
    if key in ("max-age", "s-maxage", "stale-while-revalidate", "stale-if-error"):
        if not value.isdigit():
            parser.error(f"{key} needs a number of seconds, not {value!r}")
        directives[key] = int(value)
    elif key in ("no-store", "no-cache", "private", "public", "must-revalidate", "proxy-revalidate",
                 "immutable"):
        directives[key] = True
    else:
        ignored.append(item)
if not directives and not ignored:
    parser.error("the header is empty")

who = "shared cache" if args.shared else "browser cache"
if "no-store" in directives or (args.shared and "private" in directives):
    print(f"{who}: must not store this response")
else:
    lifetime = directives.get("max-age")
    if args.shared and "s-maxage" in directives:
        lifetime = directives["s-maxage"]
    if "no-cache" in directives:
        print(f"{who}: may store it, but must revalidate before every use")
    elif lifetime is None:
        print(f"{who}: no explicit lifetime; heuristic freshness applies")
    else:
        left = max(0, lifetime - args.age)
        print(f"{who}: fresh for {span(lifetime)} ({lifetime} s); {span(left)} left at age {args.age} s")
    if "stale-while-revalidate" in directives:
        print(f"  may serve stale for {span(directives['stale-while-revalidate'])} while revalidating")
for item in ignored:
    print(f"  ignored: {item}")

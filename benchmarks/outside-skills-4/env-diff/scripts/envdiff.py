#!/usr/bin/env python3
import argparse
import re
import sys

LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")


def read_env(path):
    values = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for raw in handle:
                if raw.lstrip().startswith("#"):
                    continue
                match = LINE.match(raw)
                if match:
                    values[match.group(1)] = match.group(2).strip().strip("'\"")
    except OSError as exc:
        sys.exit(f"envdiff.py: cannot read {path}: {exc.strerror}")
    return values


parser = argparse.ArgumentParser(prog="envdiff.py", description="Compare a .env template with a .env file.")
parser.add_argument("template")
parser.add_argument("actual")
parser.add_argument("--empty", action="store_true")
args = parser.parse_args()
template, actual = read_env(args.template), read_env(args.actual)
missing = sorted(set(template) - set(actual))
extra = sorted(set(actual) - set(template))
print("missing: " + (", ".join(missing) or "none"))
print("extra: " + (", ".join(extra) or "none"))
if args.empty:
    empty = sorted(k for k, v in actual.items() if not v)
    print("empty: " + (", ".join(empty) or "none"))

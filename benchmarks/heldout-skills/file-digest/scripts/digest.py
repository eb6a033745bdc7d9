#!/usr/bin/env python3
"""Prints the hex digest of a file: md5, sha1, sha256 or sha512."""

import hashlib
import sys

ALGORITHMS = ("md5", "sha1", "sha256", "sha512")

if len(sys.argv) != 3 or sys.argv[1] not in ALGORITHMS:
    print(f"usage: digest.py ALGORITHM FILE, ALGORITHM one of: {' '.join(ALGORITHMS)}", file=sys.stderr)
    sys.exit(2)
digest = hashlib.new(sys.argv[1])
try:
    with open(sys.argv[2], "rb") as handle:
        for block in iter(lambda: handle.read(65536), b""):
            digest.update(block)
except OSError as exc:
    print(f"cannot read {sys.argv[2]}: {exc.strerror}", file=sys.stderr)
    sys.exit(1)
print(f"{digest.hexdigest()}  {sys.argv[2]}")

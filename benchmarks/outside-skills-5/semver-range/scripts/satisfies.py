#!/usr/bin/env python3
import re
import sys

VERSION = re.compile(r"v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?")


def parse_exact(text):
    m = VERSION.fullmatch(text.strip())
    if not m or m[2] is None or m[3] is None or not m[2].isdigit() or not m[3].isdigit():
        raise ValueError(text)
    return (int(m[1]), int(m[2]), int(m[3])), m[4]


def key(version):
    nums, pre = version
    if pre is None:
        return (nums, (1,))
    parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))
    return (nums, (0, parts))


def bounds(term):
    """One range term -> list of (op, (major, minor, patch))."""
    m = re.fullmatch(r"(\^|~|>=|<=|>|<|=)?\s*" + VERSION.pattern, term)
    if not m:
        raise ValueError(term)
    op, major = m[1] or "", int(m[2])
    minor = None if m[3] is None or not m[3].isdigit() else int(m[3])
    patch = None if m[4] is None or not m[4].isdigit() else int(m[4])
    lo = (major, minor or 0, patch or 0)
    if op == "^":
        hi = (major + 1, 0, 0) if major else ((0, lo[1] + 1, 0) if lo[1] or minor is None else (0, 0, lo[2] + 1))
        return [(">=", lo), ("<", hi)]
    if op == "~" or (op in ("", "=") and patch is None):
        hi = (major + 1, 0, 0) if minor is None else (major, minor + 1, 0)
        return [(">=", lo), ("<", hi)]
    return [(op or "=", lo)]


def compare(version, op, ref):
    a, b = key(version), key((ref, None))
    return {"=": a == b, ">": a > b, ">=": a >= b, "<": a < b, "<=": a <= b}[op]


def main(argv):
    if len(argv) != 2:
        print("usage: satisfies.py VERSION RANGE", file=sys.stderr)
        return 2
    try:
        version = parse_exact(argv[0])
    except ValueError:
        print(f"satisfies.py: {argv[0]!r} is not an exact version like 1.4.2", file=sys.stderr)
        return 2
    alternatives = []
    try:
        for alt in argv[1].split("||"):
            terms = re.findall(r"(?:\^|~|>=|<=|>|<|=)?\s*[vV]?[\dxX*][\w.*-]*", alt)
            alternatives.append([b for t in terms for b in bounds(t.replace(" ", ""))])
    except ValueError as exc:
        print(f"satisfies.py: cannot read range term {exc}", file=sys.stderr)
        return 2
    plain = " || ".join(" ".join(f"{op}{'.'.join(map(str, v))}" for op, v in alt) for alt in alternatives)
    ok = any(all(compare(version, op, v) for op, v in alt) for alt in alternatives)
    print(f"{argv[0]} {'satisfies' if ok else 'does not satisfy'} {argv[1]}  ({plain})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Time `studio validate DIR --format json` against skills-ref's `validate()` on a generated library.

    python benchmarks/validate_corpus.py [--count 10000] [--runs 5] [--no-check]

Generates the skills in a temp folder, then times, `--runs` times each:
  1. skills-ref: walking the folder for SKILL.md files, then `validate()` on each, in this process;
  2. studio, cold: `python -m studio validate DIR --format json` with a fresh, empty cache folder;
  3. studio, rescan: the same command again over the unchanged library, with the cache of (2).
It prints the median and minimum of each and the ratios of the medians, and exits 1 when studio
is less than 8x faster than skills-ref cold, or a rescan less than 5x faster than a cold run
(`--no-check` only prints). It also checks that the JSON lists every generated skill.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from corpus import generate_corpus
from skills_ref.validator import validate

COLD_TARGET = 8.0
RESCAN_TARGET = 5.0
REPO = Path(__file__).resolve().parent.parent


def skills_ref_pass(root: Path) -> tuple[int, int]:
    """Find every skill folder below `root` and validate it; return (skills, valid)."""
    folders = [Path(top) for top, _, files in os.walk(root) if "SKILL.md" in files]
    valid = 0
    for folder in folders:
        try:
            errors = validate(folder)
        except Exception as exc:  # skills-ref raises on a few inputs; count it as a refusal
            errors = [str(exc)]
        valid += not errors
    return len(folders), valid


def studio_pass(root: Path, cache: Path) -> tuple[int, int]:
    """Run the CLI as a user would; return (skills listed, valid) from its JSON."""
    path = os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH"))))
    env = dict(os.environ, STUDIO_CACHE_DIR=str(cache), PYTHONPATH=path)
    completed = subprocess.run(
        [sys.executable, "-m", "studio", "validate", str(root), "--format", "json"],
        capture_output=True, env=env, check=False,
    )
    try:
        if completed.returncode not in (0, 1):
            raise ValueError(f"exit code {completed.returncode}")
        payload = json.loads(completed.stdout)
    except ValueError as exc:
        sys.exit(f"studio validate did not give its JSON report ({exc}):\n"
                 f"{completed.stderr.decode(errors='replace')[-2000:]}")
    skills = payload["skills"]
    return len(skills), sum(1 for skill in skills if skill["valid"])


def timed(run: Callable[[], tuple[int, int]]) -> tuple[float, tuple[int, int]]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def row(label: str, times: list[float], count: int) -> str:
    median, best = statistics.median(times), min(times)
    return (
        f"{label:<28}{median:>9.2f} s{best:>9.2f} s{median / count * 1e6:>11.0f} µs"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=10_000, help="skills to generate")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-check", action="store_true", help="print only; never fail")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="studio-bench-") as scratch:
        root = Path(scratch) / "library"
        start = time.perf_counter()
        kinds = generate_corpus(root, args.count, args.seed)
        print(f"generated {args.count} skills in {time.perf_counter() - start:.1f} s under {root}")
        print("  " + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())))
        skills_ref_pass(root)  # one untimed pass so both sides find the files in the OS cache

        reference, cold, rescan = [], [], []
        found: dict[str, tuple[int, int]] = {}
        for run in range(args.runs):
            seconds, found["skills-ref"] = timed(partial(skills_ref_pass, root))
            reference.append(seconds)
            cache = Path(scratch) / f"cache-{run}"
            seconds, found["studio"] = timed(partial(studio_pass, root, cache))
            cold.append(seconds)
        for _ in range(args.runs):
            seconds, found["studio rescan"] = timed(partial(studio_pass, root, cache))
            rescan.append(seconds)

    print()
    print(f"{'':<28}{'median':>11}{'min':>11}{'per skill':>14}")
    print(row("skills-ref validate()", reference, args.count))
    print(row("studio validate, cold", cold, args.count))
    print(row("studio validate, rescan", rescan, args.count))
    print()
    for side, (listed, valid) in found.items():
        print(f"{side}: {listed} skills, {valid} valid")
    cold_ratio = statistics.median(reference) / statistics.median(cold)
    rescan_ratio = statistics.median(cold) / statistics.median(rescan)
    misses = []
    for label, ratio, target in (
        ("cold: skills-ref / studio", cold_ratio, COLD_TARGET),
        ("rescan: cold / rescan", rescan_ratio, RESCAN_TARGET),
    ):
        verdict = "ok" if ratio >= target else "MISSED"
        print(f"{label:<28}{ratio:>8.1f}x   (target {target:.0f}x: {verdict})")
        if ratio < target:
            misses.append(label)
    listed_everything = all(listed == args.count for listed, _ in found.values())
    if not listed_everything:
        print(f"not every side listed all {args.count} skills", file=sys.stderr)
    if args.no_check:
        return 0
    return 0 if not misses and listed_everything else 1


if __name__ == "__main__":
    sys.exit(main())

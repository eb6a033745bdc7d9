"""The plain frontmatter reader's worth: a scan worker's CPU per skill with it and without it.

    python benchmarks/frontmatter_reader.py [--count 10000] [--runs 5] [--seed 0]

Generates skills shaped like public collections (see corpus.py) in a temp folder, walks them
once, then validates them all as a scan's worker does (`validate_folders`: list the files, read
and parse SKILL.md, run every rule, build the cache tuple), `--runs` times with the plain reader
(`studio.skills.yaml.plainyaml`) and as many times without it (every frontmatter through libyaml), in
turns and in this one process, so that load from elsewhere falls on both alike. It prints the
CPU time per skill of each (median and minimum), parsing alone the same way, and how many
frontmatters the plain reader took.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from corpus import generate_corpus

from studio.skills import parse_skill
from studio.skills.scan.roots import validate_folders
from studio.skills.scan.walk import walk_skills
from studio.skills.yaml.plainyaml import read_plain

# The module itself, not its front door's names: the benchmark swaps the reader it calls.
PARSE_MODULE = importlib.import_module("studio.skills.parse")


def _off(raw: str, base: int) -> None:
    return None


def per_skill(work: Callable[[], Any], count: int) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) / count * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="studio-bench-reader-"))
    try:
        shape = generate_corpus(scratch / "library", args.count, args.seed)
        print(shape.report())
        found = list(walk_skills(scratch / "library", False, [], [], "none"))
        sources = [(Path(item.folder) / item.skill_name) for item in found]
        files = [(path.read_bytes(), path) for path in sources]
        reader = read_plain
        frontmatters = [skill.frontmatter for skill in
                        (parse_skill(data, path) for data, path in files)]
        took = sum(fm is not None and reader(fm.raw, 0) is not None for fm in frontmatters)
        times: dict[str, list[float]] = {"validate, with": [], "validate, without": [],
                                         "parse, with": [], "parse, without": []}
        for _ in range(args.runs):
            for side, read in (("with", reader), ("without", _off)):
                # What parse calls: the reader, or nothing, sending every frontmatter to libyaml.
                vars(PARSE_MODULE)["read_plain"] = read
                times[f"validate, {side}"].append(
                    per_skill(lambda: validate_folders(found), len(found)))
                times[f"parse, {side}"].append(per_skill(
                    lambda: [parse_skill(data, path) for data, path in files], len(files)))
        vars(PARSE_MODULE)["read_plain"] = reader
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"the plain reader took {took:,} of {len(files):,} frontmatters")
    for name, values in times.items():
        print(f"{name:<20} median {statistics.median(values):6.0f} µs a skill, "
              f"min {min(values):6.0f} µs (CPU, {args.runs} runs in turns)")
    for what in ("validate", "parse"):
        with_, without = (statistics.median(times[f"{what}, {side}"])
                          for side in ("with", "without"))
        print(f"{what}: {1 - with_ / without:.0%} less CPU with the plain reader")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Search at a registry's size: the lexical query's time over a 100,000-skill index, and how many
skills a second the semantic index is built at.

    python benchmarks/search_100k.py --library DIR [--embed-sample DIR] [--embed-count 512]

1. Lexical: scans DIR (say a corpus.py collection of 100,000: `validate_100k.py --layout
   collection` keeps one under /tmp), builds the full-text index in memory (timed), then asks
   every query below five times and reports the median (p50) and the worst. Target: p50 at most
   50 ms.
2. Semantic: embeds `--embed-count` skills of `--embed-sample` (real skills: a generated corpus
   repeats its texts, which says nothing of the model's speed) with the in-process
   all-MiniLM-L6-v2, and reports skills a second of wall clock and of CPU (the load changes the
   first, hardly the second). Target: 200 a second on two cores.
Prints the load average before and after: on a shared machine the wall-clock figures follow it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from studio.llm.minilm import shared
from studio.skills import SkillSummary
from studio.skills.scan import SkillRoot
from studio.skills.scan.roots import scan_library
from studio.skills.search import SearchIndex

QUERIES = ("pdf", "convert a spreadsheet to csv", "review pull requests", "deploy to kubernetes",
           "write unit tests for python", "summarize meeting notes", "database migration",
           "design a logo", "security audit of dependencies", "translate documents",
           "git commit message", "api changelog", "calendar schema", "scrape a web page")


def scan(root: Path, limit: int | None = None) -> list[SkillSummary]:
    found: list[SkillSummary] = []

    def keep(summary: SkillSummary) -> None:
        if limit is None or len(found) < limit:
            found.append(summary)

    scan_library([SkillRoot(root)], on_skill=keep,
                 cancelled=(lambda: len(found) >= limit) if limit is not None else None)
    return found


def lexical(root: Path) -> None:
    started = time.perf_counter()
    skills = scan(root)
    print(f"scanned {len(skills):,} skills in {time.perf_counter() - started:.1f} s")
    index = SearchIndex(None)
    started, cpu = time.perf_counter(), time.process_time()
    index.update(skills)
    print(f"indexed in {time.perf_counter() - started:.1f} s ({time.process_time() - cpu:.1f} s "
          f"of CPU)")
    times = []
    for _ in range(5):
        for query in QUERIES:
            started = time.perf_counter()
            index.search(query, limit=20)
            times.append((time.perf_counter() - started) * 1000)
    print(f"lexical query over {len(skills):,}: p50 {statistics.median(times):.0f} ms, worst "
          f"{max(times):.0f} ms ({len(times)} queries)")


def semantic(root: Path, count: int) -> None:
    skills = scan(root, count)
    index = SearchIndex(None)
    index.update(skills)
    model = shared()
    model.embed(["load the weights before the clock starts"])
    started, cpu = time.perf_counter(), time.process_time()
    done = index.embed(model)
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    print(f"embedded {done} real skills: {done / wall:.1f} a second of wall clock, "
          f"{done / used:.1f} a second of CPU ({used:.1f} s of CPU)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--embed-sample", type=Path)
    parser.add_argument("--embed-count", type=int, default=512)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    lexical(args.library)
    if args.embed_sample is not None:
        semantic(args.embed_sample, args.embed_count)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What Quick Open (Ctrl+P) costs the GUI thread on a large library: reading the skills when the
box opens, and one search per keystroke as a query is typed letter by letter.

    python benchmarks/quick_open.py [--skills N] [--runs R]

It hands the core `Library` N skills shaped like a collection's (`skills/ownerK--repoJ/skills/
NAME`, names shared by several forks), then times, best of R runs each: reading them into the
box's entries with its matcher (done when the box opens after the library changed), and each
keystroke of a few queries typed one letter at a time (the matcher narrows the last search as
the query grows), the slowest keystroke of one typing. No window: these are the only work
Quick Open does on the GUI thread beyond painting at most 200 rows.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from studio.skills import SkillSummary
from studio.skills.library import Library
from studio.skills.scan import SkillRoot
from studio.ui.quickopen import Matcher
from studio.ui.quickopen.entries import skill_entries

QUERIES = ("pdf", "skill-12", "sktl", "pdf owner12", "zzz")


def library_of(count: int) -> Library:
    library = Library()
    root = Path("/data/collection")
    library.add_root(SkillRoot(root))
    folders = [root / "skills" / f"owner{n % 800}--repo{n % 7}" / "skills" / f"skill-{n}"
               for n in range(count)]
    library.add_skills(root, [
        SkillSummary(root, folder, folder / "SKILL.md",
                     f"{('pdf', 'skill', 'csv', 'web')[n % 4]}-{n % (count // 3 or 1)}-tool", "",
                     True, True, ())
        for n, folder in enumerate(folders)])
    return library


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    library = library_of(options.skills)
    print(f"{options.skills:,} skills; load average {os.getloadavg()[0]:.1f}")

    def read() -> Matcher:
        entries = skill_entries(library)
        return Matcher([entry.name for entry in entries], [entry.hint for entry in entries])

    print(f"open (read the skills, build the matcher): {best_of(options.runs, read) * 1000:.1f} ms")
    matcher = read()
    for query in QUERIES:
        # Letter by letter, as typed: each search narrows the one before, so each is run once.
        matcher.search("")
        worst = 0.0
        for end in range(1, len(query) + 1):
            worst = max(worst, best_of(1, partial(matcher.search, query[:end])))
        found = matcher.search(query)
        print(f"typing {query!r}: slowest keystroke {worst * 1000:.1f} ms, "
              f"{found.matched:,} matches")


if __name__ == "__main__":
    main()

"""Time `studio validate --format json --no-cache` and `studio prompt` on 100,000 small skills.

    python benchmarks/validate_100k.py [--count 100000] [--runs 3] [--corpus DIR] [--no-check]
                                       [--before DIR]

Writing 100,000 skill folders takes minutes, so the corpus is written once to `--corpus` (by
default a folder named after the count and seed in the system's temp folder) and reused while the
file `corpus-done` in it says it was written completely with the same count and seed. The skills
are "small" (corpus.py: a body of about 1 KB, no other files, the same fields and faults as the
real-shaped corpus). It runs, `--runs` times in turns, `studio validate --format json --no-cache`,
`studio prompt --no-cache` and `studio prompt` with the cache a run before it kept, prints the
median and minimum wall time, the median CPU time and the load average, and exits 1 when
validate's median is 10 s or more or a prompt's 5 s or more (`--no-check` only prints). With
`--before DIR` (a checkout of the code to compare with, such as /work/main), each turn also runs
that code's cold validate and prompt, so both versions meet the same load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import compile_checkout
from corpus import generate_corpus

VALIDATE_SECONDS = 10.0
PROMPT_SECONDS = 5.0
REPO = Path(__file__).resolve().parent.parent
DONE = "corpus-done"


def corpus_at(folder: Path, count: int, seed: int) -> Path:
    """The corpus in `folder`, written first when it is missing or incomplete."""
    marker = folder / DONE
    wanted = f"small {count} {seed}\n"
    if marker.is_file() and marker.read_text() == wanted:
        print(f"reusing the {count:,} skills in {folder}")
        return folder / "library"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    start = time.perf_counter()
    shape = generate_corpus(folder / "library", count, seed, small=True)
    print(f"wrote in {time.perf_counter() - start:.0f} s to {folder}: {shape.report()}")
    marker.write_text(wanted)
    return folder / "library"


def timed(command: list[str], cache: Path, code: Path = REPO) -> tuple[float, float]:
    """Run a studio command of the code in `code`; return its (wall, CPU) seconds, worker
    processes included."""
    path = os.pathsep.join(filter(None, (str(code), os.environ.get("PYTHONPATH"))))
    env = dict(os.environ, STUDIO_CACHE_DIR=str(cache), PYTHONPATH=path)
    before, start = os.times(), time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "studio", *command], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall, after = time.perf_counter() - start, os.times()
    if completed.returncode not in (0, 1):
        sys.exit(f"studio {command[0]} exited {completed.returncode}:\n"
                 f"{completed.stderr.decode(errors='replace')[-2000:]}")
    cpu = (after.children_user + after.children_system
           - before.children_user - before.children_system)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", type=Path, default=None, help="where the corpus is kept")
    parser.add_argument("--no-check", action="store_true", help="print only; never fail")
    parser.add_argument("--before", type=Path, default=None,
                        help="a checkout of the code to compare with, run cold in the same turns")
    args = parser.parse_args(argv)
    folder = args.corpus or Path(tempfile.gettempdir()) / f"studio-bench-small-{args.count}-{args.seed}"
    for code in (REPO, args.before) if args.before is not None else (REPO,):
        compile_checkout(code)
    root = corpus_at(folder, args.count, args.seed)
    commands = {
        "validate": ["validate", str(root), "--format", "json", "--no-cache"],
        "prompt": ["prompt", str(root), "--no-cache"],
        # With the cache prompt kept the run before: what a user who has asked once waits for.
        "prompt, cached": ["prompt", str(root)],
    }
    runs: dict[str, tuple[list[str], Path]] = {name: (command, REPO)
                                               for name, command in commands.items()}
    if args.before is not None:
        runs["validate, before"] = (commands["validate"], args.before)
        runs["prompt, before"] = (commands["prompt"], args.before)
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="studio-bench-cache-") as cache:
        timed(commands["prompt, cached"], Path(cache))  # fills the cache
        for _ in range(args.runs):
            for name, (command, code) in runs.items():
                results[name].append(timed(command, Path(cache), code))
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    misses: list[str] = []
    for name, target in (("validate", VALIDATE_SECONDS), ("prompt", PROMPT_SECONDS),
                         ("prompt, cached", PROMPT_SECONDS)):
        walls = [wall for wall, _ in results[name]]
        cpu = statistics.median(cpu for _, cpu in results[name])
        median = statistics.median(walls)
        verdict = "ok" if median < target else "MISSED"
        print(f"studio {name:<15} median {median:6.2f} s, min {min(walls):6.2f} s, "
              f"CPU {cpu:6.2f} s ({cpu / args.count * 1e6:.0f} µs a skill)   "
              f"(target under {target:.0f} s: {verdict})")
        if median >= target:
            misses.append(name)
    for name in ("validate", "prompt"):
        if f"{name}, before" in results:
            cpu = statistics.median(cpu for _, cpu in results[name])
            before = statistics.median(cpu for _, cpu in results[f"{name}, before"])
            walls = [wall for wall, _ in results[f"{name}, before"]]
            print(f"before: studio {name:<7} median {statistics.median(walls):6.2f} s, CPU "
                  f"{before:6.2f} s; now {1 - cpu / before:.0%} less CPU")
    return 0 if args.no_check or not misses else 1


if __name__ == "__main__":
    sys.exit(main())

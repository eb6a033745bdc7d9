"""Time `studio validate --format json --no-cache` and `studio prompt` on 100,000 skills.

    python benchmarks/validate_100k.py [--count 100000] [--runs 3] [--corpus DIR] [--no-check]
                                       [--layout small|collection] [--before DIR|REF]
                                       [--library DIR] [--only validate]

Writing 100,000 skill folders takes minutes, so the corpus is written once to `--corpus` (by
default a folder named after the layout, count and seed in the system's temp folder) and reused
while the file `corpus-done` in it says it was written completely with the same layout, count
and seed. `--layout small` (the default, the figures before issue 43): a body of about 1 KB and
no other files, in corpus.py's flat folders; `--layout collection`: skillgen's real shape
(bodies, files, fields and faults as measured on public skills) in a real collection's folders
(collection.py: owner--repo folders, nesting, forks sharing names): 1.1 million files, 7 GB.

It runs, `--runs` times in turns, `studio validate --format json --no-cache`, `studio prompt
--no-cache`, `studio prompt` with the cache a run before it kept, and `studio validate` again
with the scan cache of an earlier run on the unchanged library (the rescan); it prints the
median and minimum wall time, the median CPU time (workers included) and CPU a skill, the peak
memory of the largest process of each command (the command or one of its workers), and the
load average. Exits 1 when validate's median is 10 s or more, a prompt's 5 s or more or the
rescan's 2 s or more (`--no-check` only prints). With `--before` (a checkout of the code to
compare with, or a git commit such as `main`, checked out into a temporary worktree for the
run), each turn also runs that code's cold validate and prompt, so both versions meet the same
load. With `--before`, the JSON reports of both versions' first cold validate must be byte
for byte the same (else it exits 1, showing where they differ). `--library` measures an
existing folder of skills as it is (such as real ones); `--only validate` runs the cold validate
alone.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bytecode import compile_checkout
from corpus import generate_corpus

VALIDATE_SECONDS = 10.0
PROMPT_SECONDS = 5.0
RESCAN_SECONDS = 2.0
REPO = Path(__file__).resolve().parent.parent
DONE = "corpus-done"


def corpus_at(folder: Path, count: int, seed: int, layout: str = "small") -> Path:
    """The corpus in `folder`, written first when it is missing or incomplete."""
    marker = folder / DONE
    wanted = f"{layout} {count} {seed}\n"
    if marker.is_file() and marker.read_text() == wanted:
        print(f"reusing the {count:,} skills in {folder}")
        return folder / "library"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    start = time.perf_counter()
    shape = generate_corpus(folder / "library", count, seed, small=layout == "small",
                            layout="collection" if layout == "collection" else "flat")
    print(f"wrote in {time.perf_counter() - start:.0f} s to {folder}: {shape.report()}")
    marker.write_text(wanted)
    return folder / "library"


# Runs a command and prints the CPU seconds and the largest peak memory (in KB) of every
# process it started, workers included: RUSAGE_CHILDREN of a parent that ran nothing else.
# Its first argument is a file for the command's output, or "-" for none.
_MEASURED = (
    "import resource, subprocess, sys\n"
    "out = subprocess.DEVNULL if sys.argv[1] == '-' else open(sys.argv[1], 'wb')\n"
    "code = subprocess.run(sys.argv[2:], stdout=out).returncode\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(code, used.ru_utime + used.ru_stime, used.ru_maxrss)\n"
)


def timed(
    command: list[str], cache: Path, code: Path = REPO, output: Path | None = None
) -> tuple[float, float, float]:
    """Run a studio command of the code in `code` (its output to `output`, if given); return
    its wall and CPU seconds (worker processes included) and the peak memory of its largest
    process, in MB."""
    path = os.pathsep.join(filter(None, (str(code), os.environ.get("PYTHONPATH"))))
    env = dict(os.environ, STUDIO_CACHE_DIR=str(cache), PYTHONPATH=path)
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(output or "-"), sys.executable, "-m", "studio",
         *command], env=env,
        capture_output=True, text=True, check=False, cwd=code)
    wall = time.perf_counter() - start
    returned, cpu, peak = completed.stdout.split()
    if int(returned) not in (0, 1):
        sys.exit(f"studio {command[0]} exited {returned}:\n{completed.stderr[-2000:]}")
    return wall, float(cpu), int(peak) / 1024


@contextlib.contextmanager
def checkout(before: str) -> Iterator[Path]:
    """The code to compare with: a folder holding a checkout, or a commit of this repository
    checked out into a temporary worktree for the run."""
    if Path(before).is_dir():
        yield Path(before)
        return
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", "--end-of-options",
         f"{before}^{{commit}}"], capture_output=True, text=True, check=False).stdout.strip()
    if not commit:
        sys.exit(f"--before {before}: neither a folder nor a commit of {REPO}")
    with tempfile.TemporaryDirectory(prefix="studio-bench-before-") as temp:
        worktree = Path(temp) / "code"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet", "--",
                        str(worktree), commit], check=True)
        try:
            yield worktree
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", "--",
                            str(worktree)], check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--layout", choices=("small", "collection"), default="small",
                        help="small: 1 KB bodies, no other files; collection: the real shape")
    parser.add_argument("--corpus", type=Path, default=None, help="where the corpus is kept")
    parser.add_argument("--library", type=Path, default=None,
                        help="an existing library to measure as it is (such as real skills), "
                             "instead of a generated corpus; --count is then its skills' count")
    parser.add_argument("--only", choices=("validate",), default=None,
                        help="validate: only the cold validate (and its before)")
    parser.add_argument("--no-check", action="store_true", help="print only; never fail")
    parser.add_argument("--before", default=None,
                        help="a checkout or a commit (such as main) to compare with, run cold in "
                             "the same turns")
    args = parser.parse_args(argv)
    folder = args.corpus or Path(tempfile.gettempdir()) / (
        f"studio-bench-{args.layout}-{args.count}-{args.seed}")
    with contextlib.ExitStack() as stack:
        before = stack.enter_context(checkout(args.before)) if args.before is not None else None
        if args.library is not None:
            return measure(args, args.library, before)
        return measure(args, corpus_at(folder, args.count, args.seed, args.layout), before)
    return 0


def measure(args: argparse.Namespace, root: Path, before: Path | None) -> int:
    for code in (REPO, before) if before is not None else (REPO,):
        compile_checkout(code)
    commands = {
        "validate": ["validate", str(root), "--format", "json", "--no-cache"],
        "prompt": ["prompt", str(root), "--no-cache"],
        # With the cache prompt kept the run before: what a user who has asked once waits for.
        "prompt, cached": ["prompt", str(root)],
        # The same with the scan cache of the run before, the library unchanged.
        "validate, rescan": ["validate", str(root), "--format", "json"],
    }
    if args.only == "validate":
        commands = {"validate": commands["validate"]}
    runs: dict[str, tuple[list[str], Path]] = {name: (command, REPO)
                                               for name, command in commands.items()}
    if before is not None:
        runs["validate, before"] = (commands["validate"], before)
        if "prompt" in commands:
            runs["prompt, before"] = (commands["prompt"], before)
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in runs}
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="studio-bench-cache-") as cache:
        if "prompt, cached" in commands:
            timed(commands["prompt, cached"], Path(cache))  # fills the caches
            timed(commands["validate, rescan"], Path(cache))
        reports = {name: Path(cache) / f"{name}.json" for name in ("validate", "validate, before")}
        for turn in range(args.runs):
            for name, (command, code) in runs.items():
                output = reports.get(name) if turn == 0 else None
                results[name].append(timed(command, Path(cache), code, output))
            if turn == 0:
                skills = same_reports(reports, before is not None)
                if args.library is not None:
                    args.count = skills
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    misses: list[str] = []
    targets = {"validate": VALIDATE_SECONDS, "prompt": PROMPT_SECONDS,
               "prompt, cached": PROMPT_SECONDS, "validate, rescan": RESCAN_SECONDS}
    for name, measured in results.items():
        walls = [wall for wall, _, _ in measured]
        cpu = statistics.median(cpu for _, cpu, _ in measured)
        median = statistics.median(walls)
        line = (f"studio {name:<17} median {median:6.2f} s, min {min(walls):6.2f} s, "
                f"CPU {cpu:6.2f} s ({cpu / args.count * 1e6:.0f} µs a skill), "
                f"peak {max(peak for _, _, peak in measured):4.0f} MB")
        target = targets.get(name)
        if target is not None:
            line += f"   (target under {target:.0f} s: {'ok' if median < target else 'MISSED'})"
            if median >= target:
                misses.append(name)
        print(line)
    for name in ("validate", "prompt"):
        if f"{name}, before" in results:
            cpu = statistics.median(cpu for _, cpu, _ in results[name])
            was = statistics.median(cpu for _, cpu, _ in results[f"{name}, before"])
            print(f"studio {name}: {1 - cpu / was:.0%} less CPU than before")
    return 0 if args.no_check or not misses else 1


def same_reports(reports: dict[str, Path], compare: bool) -> int:
    """Exit unless the JSON reports of the code and of the code before are byte for byte the
    same (when there is a before); the count of skills the report gives."""
    mine = reports["validate"].read_bytes()
    if compare:
        theirs = reports["validate, before"].read_bytes()
        if mine != theirs:
            at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                      min(len(mine), len(theirs)))
            sys.exit(f"validate's JSON report differs from before's at byte {at:,}: "
                     f"{mine[at - 80:at + 80]!r}\nagainst {theirs[at - 80:at + 80]!r}")
        print(f"validate's JSON report is the same as before's ({len(mine):,} bytes)")
    return int(json.loads(mine)["summary"]["skills"])


if __name__ == "__main__":
    sys.exit(main())

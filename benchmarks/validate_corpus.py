"""Time `studio validate DIR --format json` against skills-ref's `validate()` on a generated library.

    python benchmarks/validate_corpus.py [--count 10000] [--runs 5] [--no-check] [--before DIR]
                                         [--library DIR]

Generates the skills in a temp folder, shaped like public collections (see corpus.py; the shape
is printed), then times, `--runs` times each, skills-ref and studio's cold run in turns so that
load from elsewhere falls on both:
  1. skills-ref: walking the folder for SKILL.md files, then `validate()` on each, in this process;
  2. studio, cold: `python -m studio validate DIR --format json --no-cache`;
  3. studio, rescan: `python -m studio validate DIR --format json` again over the unchanged
     library, after one run that kept its cache.
With `--before DIR` (a checkout of the code to compare with, such as /work/main), each turn also
runs that code's cold pass, so both versions meet the same load. It prints the median and minimum
of each, the CPU time of studio's runs, the load average, and
exits 1 when studio is less than 15x faster than skills-ref cold or a rescan takes 0.3 s or more
(`--no-check` only prints). It also checks that the JSON lists every generated skill.
`--library DIR` measures an existing folder of skills (such as real ones) instead.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bytecode import compile_checkout
from corpus import add_layout_option, generate_corpus
from skills_ref.validator import validate

COLD_TARGET = 15.0
RESCAN_SECONDS = 0.3
REPO = Path(__file__).resolve().parent.parent
# CPU seconds (user + system, workers included) of each studio run, in order.
CPU: list[float] = []
# CPU seconds of each skills-ref pass (in this process).
REF_CPU: list[float] = []
# CPU seconds of each cold run of the code given with --before, in order.
BEFORE_CPU: list[float] = []
# Peak memory in MB of each cold run, this code's and the code before's.
MEMORY: list[float] = []
BEFORE_MEMORY: list[float] = []


def skills_ref_pass(root: Path) -> tuple[int, int]:
    """Find every skill folder below `root` and validate it; return (skills, valid)."""
    start = time.process_time()
    folders = [Path(top) for top, _, files in os.walk(root) if "SKILL.md" in files]
    valid = 0
    for folder in folders:
        try:
            errors = validate(folder)
        except Exception as exc:  # skills-ref raises on a few inputs; count it as a refusal
            errors = [str(exc)]
        valid += not errors
    REF_CPU.append(time.process_time() - start)
    return len(folders), valid


# Runs the CLI as `python -m studio` does, then writes this process's peak memory (VmHWM) to
# the file named by its first argument. The peak is read from /proc because `ru_maxrss` of a
# child started from this process counts this process's own memory, which its exec inherits.
_PEAK_WRAPPER = """
import runpy, sys
peak_file = sys.argv.pop(1)
sys.argv[0] = "studio"
try:
    runpy.run_module("studio", run_name="__main__", alter_sys=True)
finally:
    with open("/proc/self/status") as status:
        peak = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "0")
    with open(peak_file, "w") as out:
        out.write(peak)
"""


def studio_pass(root: Path, cache: Path, *options: str, code: Path = REPO,
                cpu: list[float] = CPU, memory: list[float] | None = None) -> tuple[int, int]:
    """Run the CLI of the code in `code` as a user would, adding its CPU time (workers
    included) to `cpu` and the command's own peak memory in MB (its workers are smaller) to
    `memory`; return (skills listed, valid) from its JSON."""
    path = os.pathsep.join(filter(None, (str(code), os.environ.get("PYTHONPATH"))))
    env = dict(os.environ, STUDIO_CACHE_DIR=str(cache), PYTHONPATH=path)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        process = subprocess.Popen(
            [sys.executable, "-c", _PEAK_WRAPPER, peak.name,
             "validate", str(root), "--format", "json", *options],
            # In the code's own folder: Python puts the working folder first on the path, so run
            # from another checkout the command would import that one's code.
            stdout=out, stderr=err, env=env, cwd=code,
        )
        # wait4 rather than wait: it gives the run's CPU time, its workers' included.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        peak_kb = peak.read().strip()
    cpu.append(usage.ru_utime + usage.ru_stime)
    if memory is not None and peak_kb.isdigit():
        memory.append(int(peak_kb) / 1024)
    try:
        if process.returncode not in (0, 1):
            raise ValueError(f"exit code {process.returncode}")
        payload = json.loads(stdout)
    except ValueError as exc:
        sys.exit(f"studio validate did not give its JSON report ({exc}):\n"
                 f"{stderr.decode(errors='replace')[-2000:]}")
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
    parser.add_argument("--before", type=Path, default=None,
                        help="a checkout of the code to compare with, run cold in the same turns")
    parser.add_argument("--library", type=Path, default=None,
                        help="an existing library to measure as it is (such as real skills) "
                             "instead of a generated one; --count is then the SKILL.md files "
                             "skills-ref finds in it")
    add_layout_option(parser)
    args = parser.parse_args(argv)

    for code in (REPO, args.before) if args.before is not None else (REPO,):
        compile_checkout(code)
    scratch = tempfile.mkdtemp(prefix="studio-bench-")
    try:
        shape = None
        if args.library is not None:
            root = args.library
        else:
            root = Path(scratch) / "library"
            start = time.perf_counter()
            shape = generate_corpus(root, args.count, args.seed, layout=args.layout)
            print(f"generated in {time.perf_counter() - start:.1f} s under {root}: "
                  f"{shape.report()}")
        # One untimed pass so both sides find the files in the OS cache.
        listed, _ = skills_ref_pass(root)
        if args.library is not None:
            args.count = listed
            print(f"{listed:,} SKILL.md files in {root}")
        REF_CPU.clear()
        print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")

        reference, cold, rescan, earlier = [], [], [], []
        found: dict[str, tuple[int, int]] = {}
        cache = Path(scratch) / "cache"
        for _ in range(args.runs):
            seconds, found["skills-ref"] = timed(partial(skills_ref_pass, root))
            reference.append(seconds)
            seconds, found["studio"] = timed(partial(studio_pass, root, cache, "--no-cache",
                                                     memory=MEMORY))
            cold.append(seconds)
            if args.before is not None:
                seconds, found["before"] = timed(partial(
                    studio_pass, root, cache, "--no-cache", code=args.before, cpu=BEFORE_CPU,
                    memory=BEFORE_MEMORY))
                earlier.append(seconds)
        cold_cpu = CPU[:]
        studio_pass(root, cache)  # keeps the cache and the report the rescans reuse
        del CPU[:]
        for _ in range(args.runs):
            seconds, found["studio rescan"] = timed(partial(studio_pass, root, cache))
            rescan.append(seconds)
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise

    print()
    print(f"{'':<28}{'median':>11}{'min':>11}{'per skill':>14}")
    print(row("skills-ref validate()", reference, args.count))
    print(row("studio validate, cold", cold, args.count))
    print(row("studio validate, rescan", rescan, args.count))
    if earlier:
        print(row("before, cold", earlier, args.count))
    print()
    cpu = statistics.median(cold_cpu)
    print(f"studio cold, CPU (all processes): median {cpu:.2f} s, "
          f"{cpu / args.count * 1e6:.0f} µs a skill")
    if BEFORE_CPU:
        before_cpu = statistics.median(BEFORE_CPU)
        print(f"before, cold, CPU: median {before_cpu:.2f} s, "
              f"{before_cpu / args.count * 1e6:.0f} µs a skill; now {1 - cpu / before_cpu:.0%} less")
    print(f"studio cold, peak memory of the command: median {statistics.median(MEMORY):.0f} MB"
          + (f"; before: {statistics.median(BEFORE_MEMORY):.0f} MB" if BEFORE_MEMORY else ""))
    reference_cpu = statistics.median(REF_CPU)
    print(f"skills-ref, CPU: median {reference_cpu:.2f} s, "
          f"{reference_cpu / args.count * 1e6:.0f} µs a skill; CPU ratio {reference_cpu / cpu:.1f}x "
          "(studio's on all cores; load from elsewhere inflates CPU time less than wall time)")
    print(f"studio rescan, CPU: median {statistics.median(CPU):.2f} s")
    for side, (listed, valid) in found.items():
        print(f"{side}: {listed} skills, {valid} valid")
    cold_ratio = statistics.median(reference) / statistics.median(cold)
    pairs = sorted(ref / mine for ref, mine in zip(reference, cold, strict=True))
    print("cold ratio of each pair (skills-ref / studio): "
          + ", ".join(f"{ratio:.1f}x" for ratio in pairs))
    misses = []
    verdict = "ok" if cold_ratio >= COLD_TARGET else "MISSED"
    print(f"{'cold: skills-ref / studio':<28}{cold_ratio:>8.1f}x   "
          f"(target {COLD_TARGET:.0f}x: {verdict})")
    if cold_ratio < COLD_TARGET:
        misses.append("cold")
    rescan_median = statistics.median(rescan)
    verdict = "ok" if rescan_median < RESCAN_SECONDS else "MISSED"
    print(f"{'rescan':<28}{rescan_median:>8.2f} s   (target under {RESCAN_SECONDS} s: {verdict})")
    if rescan_median >= RESCAN_SECONDS:
        misses.append("rescan")
    # skills-ref takes a SKILL.md inside another skill for a skill of its own; the studio does not.
    nested = getattr(shape, "nested", 0)
    listed_everything = all(listed == args.count + (nested if side == "skills-ref" else 0)
                            for side, (listed, _) in found.items())
    if args.library is None and not listed_everything:
        print(f"not every side listed all {args.count} skills (skills-ref: and {nested} nested)",
              file=sys.stderr)
    summary = (f"summary: cold {cold_ratio:.1f}x skills-ref (pairs "
               + ", ".join(f"{ratio:.1f}x" for ratio in pairs) + ")")
    if earlier:
        summary += (f"; the code before {statistics.median(reference) / statistics.median(earlier):.1f}x"
                    f"; CPU {cpu:.2f} s vs {statistics.median(BEFORE_CPU):.2f} s; peak memory "
                    f"{statistics.median(MEMORY):.0f} MB vs {statistics.median(BEFORE_MEMORY):.0f} MB")
    summary += f"; load average {os.getloadavg()[0]:.1f}"
    print(summary)
    _remove(scratch)
    if args.no_check:
        return 0
    return 0 if not misses and listed_everything else 1


def _remove(scratch: str) -> None:
    print(f"removing {scratch} (100,000 files take a while)", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

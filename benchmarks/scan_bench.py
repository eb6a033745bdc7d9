"""`studio scan` on our own malicious and benign skills, and on a real corpus (issue 41).

    python benchmarks/scan_bench.py [--part dev|test|all] [--corpus DIR] [--workers N]
                                    [--skill-scanner]

The skills are data (`scan_data/`): written to a temp folder, scanned by `studio.threatscan` in
this process, and counted as flagged when a finding is at `high` or above. It prints, per class,
how many were flagged (subtle ones apart), the benign skills flagged with the codes that did it,
and the CPU a skill. `--part test` is the held-out part: run it once, after tuning on `dev`.

`--corpus DIR` scans every skill folder under DIR (a checkout of a public collection) and
prints the fraction flagged at `high` or above, the codes behind them and the CPU: the whole
scan's process time (the workers' with `--workers`). `--skill-scanner` runs Cisco's
`skill-scanner` CLI on the same sets when it is installed (`pip install cisco-ai-skill-scanner`)
and counts its HIGH and CRITICAL findings the same way."""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bytecode import compile_checkout
from scan_data import benign_dev, benign_test, malicious_dev, malicious_test
from scan_data.common import Case

from studio.threatscan import scan_skill, skill_folders

PARTS = {
    "dev": malicious_dev.CASES + benign_dev.CASES,
    "test": malicious_test.CASES + benign_test.CASES,
}
PARTS["all"] = PARTS["dev"] + PARTS["test"]


def write_cases(root: Path, cases: list[Case]) -> list[tuple[Case, Path]]:
    written = []
    for item in cases:
        folder = root / item.name
        for relative, content in item.files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        written.append((item, folder))
    return written


def run_sets(part: str, use_skill_scanner: bool) -> None:
    cases = PARTS[part]
    with tempfile.TemporaryDirectory() as temp:
        written = write_cases(Path(temp), cases)
        started = time.process_time()
        results = {item.name: scan_skill(folder) for item, folder in written}
        cpu = time.process_time() - started
        theirs = _skill_scanner(written) if use_skill_scanner else None
    by_class: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    benign_flagged = []
    for item in cases:
        flagged = results[item.name].at_least("high")
        row = by_class[item.kind]
        row[0] += 1
        row[1] += flagged
        row[2] += item.subtle
        row[3] += flagged and item.subtle
        if item.kind == "benign" and flagged:
            codes = sorted({f.code for f in results[item.name].findings if f.at_least("high")})
            benign_flagged.append(f"{item.name} ({', '.join(codes)})")
    print(f"part: {part}; {len(cases)} skills; flagged = a finding at high or above")
    print(f"{'class':18} {'flagged':>9} {'subtle':>9}" + ("  skill-scanner" if theirs else ""))
    malicious = [0, 0, 0, 0]
    for kind, (count, hit, subtle, subtle_hit) in sorted(by_class.items()):
        extra = ""
        if theirs is not None:
            names = [i.name for i in cases if i.kind == kind]
            extra = f"  {sum(theirs.get(n, False) for n in names)} of {len(names)}"
        print(f"{kind:18} {hit:>4} of {count:<3} {subtle_hit:>3} of {subtle:<3}{extra}")
        if kind != "benign":
            malicious = [a + b for a, b in zip(malicious, (count, hit, subtle, subtle_hit), strict=True)]
    count, hit, subtle, subtle_hit = malicious
    extra = ""
    if theirs is not None:
        names = [i.name for i in cases if i.kind != "benign"]
        subtle_names = [i.name for i in cases if i.kind != "benign" and i.subtle]
        extra = (f"  {sum(theirs.get(n, False) for n in names)} of {len(names)}, subtle "
                 f"{sum(theirs.get(n, False) for n in subtle_names)} of {len(subtle_names)}")
    print(f"{'malicious, all':18} {hit:>4} of {count:<3} {subtle_hit:>3} of {subtle:<3}"
          f" ({100 * hit / max(count, 1):.0f}%){extra}")
    print(f"benign flagged: {len(benign_flagged)} of {by_class['benign'][0]}"
          + (f": {'; '.join(benign_flagged)}" if benign_flagged else ""))
    missed = [i.name for i in cases if i.kind != "benign" and not results[i.name].at_least("high")]
    print(f"malicious missed: {', '.join(missed) or 'none'}")
    print(f"CPU a skill: {1000 * cpu / len(cases):.2f} ms")


def _skill_scanner(written: list[tuple[Case, Path]]) -> dict[str, bool] | None:
    """Whether Cisco's skill-scanner (offline analyzers, its defaults) finds HIGH or CRITICAL in
    each skill: one `scan-all` over the set's folder, so its start-up is paid once."""
    program = shutil.which("skill-scanner")
    if program is None:
        print("skill-scanner is not installed: its column is left out")
        return None
    root = written[0][1].parent
    started = time.perf_counter()
    done = subprocess.run([program, "scan-all", "--recursive", "--format", "json", "--", str(root)],
                          capture_output=True, text=True, timeout=3600, check=False)
    seconds = time.perf_counter() - started
    try:
        results = json.loads(done.stdout)["results"]
    except (ValueError, KeyError, TypeError):
        print(f"skill-scanner gave no report (exit {done.returncode}): {done.stderr[-300:]}")
        return None
    worst = {Path(r["skill_path"]).name: r.get("max_severity") for r in results}
    print(f"skill-scanner: {seconds:.1f} s wall for {len(written)} skills, start-up included")
    return {item.name: worst.get(item.name) in ("HIGH", "CRITICAL") for item, _ in written}


def _scan_worst(folder: str) -> tuple[str, list[str], float]:
    started = time.process_time()
    scan = scan_skill(Path(folder))
    codes = sorted({f.code for f in scan.findings if f.at_least("high")})
    return folder, codes, time.process_time() - started


def run_corpus(root: Path, workers: int) -> None:
    started_wall = time.perf_counter()
    started = os.times()
    folders, _ = skill_folders([root])
    names = [str(folder) for folder in folders]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_scan_worst, names, chunksize=64))
    else:
        results = [_scan_worst(name) for name in names]
    ended = os.times()
    cpu = (ended.user - started.user) + (ended.system - started.system) + (
        ended.children_user - started.children_user) + (ended.children_system - started.children_system)
    wall = time.perf_counter() - started_wall
    flagged = [(folder, codes) for folder, codes, _ in results if codes]
    by_code = collections.Counter(code for _, codes in flagged for code in codes)
    print(f"corpus: {root}: {len(results)} skills, {len(flagged)} flagged at high or above "
          f"({100 * len(flagged) / max(len(results), 1):.1f}%); by code: "
          + ", ".join(f"{code} {count}" for code, count in by_code.most_common()))
    print(f"CPU {cpu:.1f} s in all ({1000 * cpu / max(len(results), 1):.2f} ms a skill), wall "
          f"{wall:.1f} s with {workers} worker{'s' if workers != 1 else ''}; load average "
          f"{os.getloadavg()[0]:.1f}")
    report = Path(tempfile.gettempdir()) / "scan_bench_corpus.json"
    report.write_text(json.dumps(flagged, indent=1), encoding="utf-8")
    print(f"flagged skills and their codes: {report}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--corpus", type=Path, help="a folder of real skills to scan")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--skill-scanner", action="store_true")
    parser.add_argument("--no-sets", action="store_true", help="scan the corpus only")
    args = parser.parse_args()
    if not args.no_sets:
        run_sets(args.part, args.skill_scanner)
    if args.corpus is not None:
        # Each worker imports the package: from compiled modules, as an installed one does.
        compile_checkout(Path(__file__).resolve().parent.parent)
        run_corpus(args.corpus, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

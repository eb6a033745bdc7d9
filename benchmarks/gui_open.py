"""How fast the studio window opens a library of 10,000 skills, and whether it stays responsive.

    python benchmarks/gui_open.py [--skills N] [--no-check] [--keep DIR] [--layout collection]
                                  [--before DIR [--turns N]] [--library DIR]
                                  [--listed-target S] [--memory-target MB]

Generates N skills (a mix of valid ones, ones with warnings and ones with errors) in a temp folder,
then opens the real main window offscreen on them twice, each time in a fresh process: once with
an empty scan cache (cold, the headline) and once with the cache that run left (warm). For each it
reports the time from `show()` until the library model holds every skill ("all listed": a cold
scan lists the skills before it validates them, see `studio.skills.scan.listed_first`) and
until the scan ended ("all checked": every skill validated and shared names judged), the GUI
thread's longest stall (the worst lateness of a 5 ms timer), and the peak memory of the window's
process and of the scan process. Then it types "pdf" into the library's filter box and clears it
again, as a user does, and reports for each the time until the tree shows the result and the
longest stall (clearing once rebuilt the tree: 3.3 s on 8,223 skills). Last it closes the first
root and opens it again (on the collection, every repository folder of the library), then selects
it, and reports the longest stall of each. Exits 1 if a cold or warm figure misses its target,
unless --no-check.

`--library DIR` opens an existing library as it is (such as the 100,000 skills validate_100k.py
generates: `--library /tmp/studio-bench-collection-100000-0/library --skills 100000
--listed-target 15 --memory-target 1500`, issue 43's targets at that size).

`--layout collection` generates the skills with `corpus.py` in a real collection's shape
(owner--repo folders, forks sharing names: see collection.py) instead of the uniform groups.
`--before DIR` (a checkout of older code, e.g. `git worktree add /tmp/perf-before main`) opens
the window cold with this code and with that one in turns, `--turns` times, each in a fresh
process with an empty cache, so both meet the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bytecode import compile_checkout
from corpus import generate_corpus
from offscreen import offscreen_app

REPO = Path(__file__).resolve().parent.parent

TARGET_SECONDS = 3.0
TARGET_STALL_MS = 100.0
TARGET_MEMORY_MB = 600.0
TICK_MS = 5
SETTLE_SECONDS = 0.5
STALL_NOTE_MS = 40
FILTER_WORD = "pdf"


def generate(root: Path, count: int) -> None:
    """Write `count` skills in groups of 100: most valid, some with warnings or errors."""
    for number in range(count):
        folder = root / f"group-{number // 100:03d}" / f"skill-{number:05d}"
        folder.mkdir(parents=True)
        name = f"skill-{number:05d}"
        description = f"Generated skill {number}. Use when benchmarking the library view."
        extra = ""
        if number % 10 == 3:
            description = f"Generated skill {number} without a hint about its use."
        if number % 50 == 7:
            name = f"Skill-{number:05d}"
        if number % 25 == 11:
            extra = "version: 1.0\n"
        body = f"# Skill {number}\n\nDo the thing.\n\n## Steps\n\n1. One.\n2. Two.\n"
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\nlicense: MIT\n{extra}---\n{body}",
            encoding="utf-8",
        )
        if number % 20 == 0:
            (folder / "scripts").mkdir()
            (folder / "scripts" / "run.py").write_text("print('hi')\n", encoding="utf-8")


def measure(root: Path, count: int, scratch: Path) -> dict[str, Any]:
    """Open the window on `root` and measure (runs in its own process)."""
    app = offscreen_app(scratch)

    import asyncio

    import qasync
    from PySide6.QtCore import Qt, QTimer

    from studio.settings import SettingsStore
    from studio.ui.mainwindow import MainWindow

    figures: dict[str, Any] = {"skills": count, "longest_stall_ms": 0.0, "stalls": [],
                               "filter_stall_ms": 0.0, "clear_stall_ms": 0.0,
                               "expand_stall_ms": 0.0, "select_stall_ms": 0.0}
    # The figure the ticks count into: the open, then typing a filter, then clearing it.
    phase = ["longest_stall_ms"]

    async def run() -> None:
        window = MainWindow(SettingsStore(scratch / "settings.yaml"),
                            cache_path=scratch / "scan-cache.marshal", session_roots=[root])
        loop = asyncio.get_running_loop()
        loaded: asyncio.Future[None] = loop.create_future()
        finished: asyncio.Future[None] = loop.create_future()
        last = [time.perf_counter()]

        def on_tick() -> None:
            now = time.perf_counter()
            lateness = (now - last[0]) * 1000 - TICK_MS
            figures[phase[0]] = max(figures[phase[0]], lateness)
            if lateness > STALL_NOTE_MS and phase[0] == "longest_stall_ms":
                figures["stalls"].append((round(now - started, 3), round(lateness)))
            last[0] = now

        def on_skills_changed(total: int) -> None:
            if total >= count and not loaded.done():
                figures["all_loaded_s"] = time.perf_counter() - started
                loaded.set_result(None)

        def on_scan_finished() -> None:
            if not finished.done():
                figures["scan_finished_s"] = time.perf_counter() - started
                finished.set_result(None)

        async def filter_and_clear(panel: Any) -> None:
            """Type FILTER_WORD into the library's filter box as a user does (the box waits for
            the typing to pause), then clear it: the longest stall of each, and the time until
            the tree shows every skill again."""
            for word, key in ((FILTER_WORD, "filter"), ("", "clear")):
                phase[0] = f"{key}_stall_ms"
                typed = time.perf_counter()
                panel.filter_edit.setText(word)
                shown = panel.proxy if word else panel.model
                while panel.tree.model() is not shown or panel.proxy.active != bool(word):
                    await asyncio.sleep(TICK_MS / 1000)
                figures[f"{key}_s"] = time.perf_counter() - typed
                await asyncio.sleep(SETTLE_SECONDS)
            phase[0] = "longest_stall_ms"

        async def expand_and_select(panel: Any) -> None:
            """Close the first root (the collection: every folder of the library) and open it
            again, then select it, as a user does: the longest stall of each."""
            root = panel.model.index_of(panel.model.roots()[0])
            panel.tree.collapse(root)
            await asyncio.sleep(SETTLE_SECONDS)
            phase[0] = "expand_stall_ms"
            panel.tree.expand(root)
            await asyncio.sleep(SETTLE_SECONDS)
            phase[0] = "select_stall_ms"
            panel.tree.setCurrentIndex(root)
            await asyncio.sleep(SETTLE_SECONDS * 2)
            phase[0] = "longest_stall_ms"

        ticker = QTimer()
        ticker.setTimerType(Qt.TimerType.PreciseTimer)
        ticker.setInterval(TICK_MS)
        ticker.timeout.connect(on_tick)
        window.library_model.skills_changed.connect(on_skills_changed)
        window.loader.scan_finished.connect(on_scan_finished)

        started = time.perf_counter()
        window.show()
        window.start()
        last[0] = time.perf_counter()
        ticker.start()
        await asyncio.wait_for(asyncio.gather(loaded, finished), timeout=1800)
        await asyncio.sleep(SETTLE_SECONDS)
        await filter_and_clear(window.library_panel)
        await expand_and_select(window.library_panel)
        ticker.stop()
        figures["model_skills"] = window.library_model.skill_count
        window.close_without_asking()
        window.deleteLater()

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        runner.run(run())
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures["scanner_peak_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return figures


def read_all(root: Path) -> int:
    """Read every file below `root` once, so that every timed run finds them in the system's
    file cache; the bytes read."""
    total = 0
    for folder, _, files in os.walk(root):
        for name in files:
            try:
                total += len(Path(folder, name).read_bytes())
            except OSError:
                continue
    return total


def run_case(case: str, root: Path, count: int, scratch: Path,
             code: Path = REPO) -> dict[str, Any]:
    """Measure in a fresh process that imports the studio from `code`."""
    command = [sys.executable, os.path.abspath(__file__), "--measure", str(root.resolve()),
               "--skills", str(count), "--scratch", str(scratch.resolve())]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, (str(code), os.environ.get("PYTHONPATH")))))
    # In the code's own folder: the window starts its scan process with `python -m`, which puts
    # the working folder first on the path, so from another checkout it would scan with that code.
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=False,
                          env=env, cwd=code)
    if done.returncode != 0:
        raise SystemExit(f"the {case} run failed:\n{done.stdout}\n{done.stderr}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["case"] = case
    return figures


def misses(figures: dict[str, Any], listed_s: float, memory_mb: float) -> list[str]:
    found = []
    if figures["all_loaded_s"] > listed_s:
        found.append(f"{figures['case']}: all listed after {figures['all_loaded_s']:.2f} s "
                     f"(target {listed_s:.0f} s)")
    if figures["longest_stall_ms"] > TARGET_STALL_MS:
        found.append(f"{figures['case']}: the GUI stalled for {figures['longest_stall_ms']:.0f} ms "
                     f"(target {TARGET_STALL_MS:.0f} ms)")
    for key, what in (("filter", "typing a filter"), ("clear", "clearing the filter"),
                      ("expand", "opening the collection's root"),
                      ("select", "selecting the root")):
        if figures[f"{key}_stall_ms"] > TARGET_STALL_MS:
            found.append(f"{figures['case']}: {what} stalled the GUI for "
                         f"{figures[f'{key}_stall_ms']:.0f} ms (target {TARGET_STALL_MS:.0f} ms)")
    if figures["peak_rss_mb"] > memory_mb:
        found.append(f"{figures['case']}: peak memory {figures['peak_rss_mb']:.0f} MB "
                     f"(target {memory_mb:.0f} MB)")
    return found


def print_table(rows: list[dict[str, Any]], listed_s: float, memory_mb: float) -> None:
    header = ("case", "skills", "all listed", "all checked", "longest stall", "peak RSS (window)",
              "peak RSS (scanner)", f'filter "{FILTER_WORD}": shown / stall',
              "clear: all shown / stall", "root opened: stall", "root selected: stall")
    lines = [header]
    for row in rows:
        lines.append((row["case"], f"{row['model_skills']:,}", f"{row['all_loaded_s']:.2f} s",
                      f"{row['scan_finished_s']:.2f} s", f"{row['longest_stall_ms']:.0f} ms",
                      f"{row['peak_rss_mb']:.0f} MB", f"{row['scanner_peak_rss_mb']:.0f} MB",
                      f"{row['filter_s']:.2f} s / {row['filter_stall_ms']:.0f} ms",
                      f"{row['clear_s']:.2f} s / {row['clear_stall_ms']:.0f} ms",
                      f"{row['expand_stall_ms']:.0f} ms", f"{row['select_stall_ms']:.0f} ms"))
    lines.append(("target", "", f"≤ {listed_s:.0f} s", "", f"≤ {TARGET_STALL_MS:.0f} ms",
                  f"< {memory_mb:.0f} MB", "", f"≤ {TARGET_STALL_MS:.0f} ms stall",
                  f"≤ {TARGET_STALL_MS:.0f} ms stall", f"≤ {TARGET_STALL_MS:.0f} ms",
                  f"≤ {TARGET_STALL_MS:.0f} ms"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--no-check", action="store_true", help="report only; never fail")
    parser.add_argument("--keep", type=Path, help="generate the skills here and keep them")
    parser.add_argument("--library", type=Path,
                        help="open this library as it is (such as validate_100k.py's or real "
                        "skills) instead of generating one; --skills says how many it holds")
    parser.add_argument("--memory-target", type=float, default=TARGET_MEMORY_MB, metavar="MB",
                        help=f"the window's peak memory target (default {TARGET_MEMORY_MB:.0f}; "
                        "issue 43 gives 1,500 at 100,000 skills)")
    parser.add_argument("--listed-target", type=float, default=TARGET_SECONDS, metavar="S",
                        help=f"the all-listed target in seconds (default {TARGET_SECONDS:.0f}; "
                        "issue 43 gives 15 at 100,000 skills)")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--scratch", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--layout", choices=("groups", "collection"), default="groups",
                        help="groups: uniform groups of 100 (the figures before issue 27); "
                             "collection: corpus.py's real collection shape")
    parser.add_argument("--before", type=Path, help="a checkout of older code to open in turns")
    parser.add_argument("--turns", type=int, default=2, help="cold runs of each with --before")
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure, args.skills, args.scratch)))
        return 0

    for code in (REPO, args.before) if args.before is not None else (REPO,):
        compile_checkout(code)
    with tempfile.TemporaryDirectory(prefix="studio-bench-") as temp:
        base = args.keep or Path(temp)
        root = args.library if args.library is not None else base / "skills"
        scratch = Path(temp) / "scratch"
        if not root.exists():
            started = time.perf_counter()
            if args.layout == "collection":
                print(generate_corpus(root, args.skills, layout="collection").report())
            else:
                generate(root, args.skills)
            print(f"generated {args.skills:,} skills in {time.perf_counter() - started:.1f} s "
                  f"under {root}")
        # The first open after another program read other files found this library's files
        # out of the system's file cache and took twice as long: each side would otherwise pay
        # that by its place in the turns.
        started = time.perf_counter()
        print(f"read every file once, untimed ({read_all(root):,} bytes, "
              f"{time.perf_counter() - started:.1f} s)")
        print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        if args.before is not None:
            rows = []
            for turn in range(1, args.turns + 1):
                for label, code in (("now", REPO), ("before", args.before)):
                    rows.append(run_case(f"cold {label} #{turn}", root, args.skills,
                                         Path(temp) / f"scratch-{label}-{turn}", code))
        else:
            rows = [run_case("cold", root, args.skills, scratch),
                    run_case("warm", root, args.skills, scratch)]
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print_table(rows, args.listed_target, args.memory_target)
    missed = [miss for row in rows for miss in misses(row, args.listed_target,
                                                       args.memory_target)]
    for row in rows:
        if row["stalls"]:
            worst = sorted(row["stalls"], key=lambda stall: -stall[1])[:8]
            shown = ", ".join(f"{ms} ms at {at:.2f} s" for at, ms in worst)
            print(f"{row['case']}: {len(row['stalls'])} stalls over {STALL_NOTE_MS} ms, the worst: "
                  f"{shown}")
    for miss in missed:
        print(f"missed: {miss}")
    return 1 if missed and not args.no_check else 0


if __name__ == "__main__":
    sys.exit(main())

"""Whether the Problems panel stays responsive with 40,000 findings, loaded as a user loads them.

    python benchmarks/problems_panel.py [--skills N] [--small] [--keep DIR] [--fix-every CODE]
                                        [--profile] [--no-check]
    python benchmarks/problems_panel.py --synthetic [--skills N] [--per-skill K] [--no-check]

By default it writes a collection shaped like the public ones (`benchmarks/corpus.py`: fields
outside the spec in 77% of skills, bad names, long descriptions, broken frontmatter, dot folders;
9,600 skills give about 40,000 findings) and opens the real main window offscreen on it with the
Problems panel on the whole library, so the skills arrive through the real scan process and the
window's loader, as they do for a user. With --synthetic it hands the core `Library` N skills
with K findings each directly instead, in batches of 250 per turn of the event loop (a path the
app never takes: its loader settles what it adds, see studio/ui/collector.py; this mode shows
the panel alone).
Then it sorts by every column, filters by severity, code and text, and groups by skill; with
--fix-every CODE it then fixes every finding of CODE across the library as a user does (a finding
of CODE selected, Fix Every, the preview accepted), on a copy of the corpus made for the run (the folder
given to --keep is never written), and prints how long working out the fixes and applying them
took, and how many findings of CODE are left. For each step it prints the GUI thread's longest
stall (the worst lateness of a 5 ms timer, as benchmarks/gui_open.py measures it), the time from
the window's start to the first paint of the panel with rows in it, and the longest pause of
Python's garbage collector in the run (a full collection walks every object not frozen). Beside
each stall it prints the GUI thread's longest run of its own work between two ticks, in CPU time,
and the collector's pauses in CPU time too: on a loaded machine a wall-clock stall also holds the
time the system gave to other processes.
With --profile, each stall over 50 ms is followed by the functions the GUI thread was in
during it (sampled every 2 ms from another thread). Exits 1 if a stall passes 100 ms, unless
--no-check.

At 100,000 skills: `--skills 100000 --small --keep DIR --fix-every SK131` (1 KB bodies, as
validate_100k.py writes them; about 77,000 skills carry a field outside the spec that SK131's fix
moves under `metadata:`).

Run it on another checkout for a before/after: `PYTHONPATH=/path/to/other python
benchmarks/problems_panel.py` (steps the other panel lacks are skipped).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from offscreen import offscreen_app

TARGET_STALL_MS = 100.0
TICK_MS = 5
BATCH = 250
SETTLE_SECONDS = 0.6
PROFILE_STALL_MS = 50.0
SAMPLE_SECONDS = 0.002
SHOWN_FRAMES = 14
# The frames under every sample (the event loop and this script): left out of a stall's report.
BASE_FRAMES = frozenset({"runners.py:run", "__init__.py:run_until_complete", "__init__.py:run_forever",
                         "problems_panel.py:main", "problems_panel.py:<module>",
                         "problems_panel.py:measure"})

# (code, severity, message, field, file): the most common findings of public collections.
SHAPES = (
    ("SK131", "warning", "`version` is not a field of the spec; move it under `metadata:`",
     "version", "SKILL.md"),
    ("SK131", "warning", "`author` is not a field of the spec; move it under `metadata:`",
     "author", "SKILL.md"),
    ("SK209", "warning", "the description does not say when to use the skill", "description",
     "SKILL.md"),
    ("SK104", "error", "uppercase letters in the name", "name", "SKILL.md"),
    ("SK401", "warning", "the link points to a file that does not exist", None,
     "references/guide.md"),
    ("SK131", "warning", "`tags` is not a field of the spec; move it under `metadata:`", "tags",
     "SKILL.md"),
    ("SK202", "error", "the description is longer than 1024 characters", "description",
     "SKILL.md"),
)


def summaries(root: Path, count: int, per_skill: int) -> list[Any]:
    from studio.skills import Diagnostic, Severity, SkillSummary

    made = []
    for number in range(count):
        directory = root / f"group-{number // 100:03d}" / f"skill-{number:05d}"
        diagnostics = []
        for k in range(per_skill):
            code, severity, message, field, file = SHAPES[(number + k) % len(SHAPES)]
            diagnostics.append(Diagnostic(code, Severity(severity), message, 2 + k, 1,
                                          file=file, field=field))
        valid = not any(d.severity is Severity.ERROR for d in diagnostics)
        made.append(SkillSummary(root, directory, directory / "SKILL.md", f"skill-{number:05d}",
                                 f"Generated skill {number}.", valid, True, tuple(diagnostics)))
    return made


class Sampler:
    """The GUI thread's stack every `SAMPLE_SECONDS`, sampled from another thread, so a stall
    can be told where it went."""

    def __init__(self) -> None:
        self._main = threading.main_thread().ident
        self._samples: list[tuple[float, tuple[str, ...]]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stall-sampler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            frame = sys._current_frames().get(self._main or 0)
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append(f"{Path(code.co_filename).name}:{code.co_name}")
                frame = frame.f_back
            with self._lock:
                self._samples.append((time.perf_counter(), tuple(stack)))
                if len(self._samples) > 20_000:
                    del self._samples[:10_000]

    def report(self, since: float, until: float) -> str:
        """The functions on the GUI thread's stack in the samples between two moments, the ones
        in most samples first (each counted once a sample)."""
        with self._lock:
            stacks = [stack for at, stack in self._samples if since <= at <= until]
        seen: Counter[str] = Counter()
        for stack in stacks:
            seen.update(set(stack) - BASE_FRAMES)
        top = ", ".join(f"{name} {count}" for name, count in seen.most_common(SHOWN_FRAMES))
        return f"{len(stacks)} samples: {top}"

    def stop(self) -> None:
        self._stop.set()


def measure(count: int, per_skill: int, scratch: Path, corpus: Path | None,
            fix_code: str | None = None, profile: bool = False) -> dict[str, Any]:
    app = offscreen_app(scratch)

    import qasync
    from PySide6.QtCore import QEvent, QObject, Qt, QTimer

    from studio.settings import SettingsStore
    from studio.skills.scan import SkillRoot
    from studio.ui.mainwindow import MainWindow

    root = corpus or scratch / "library"
    made = [] if corpus else summaries(root, count, per_skill)
    figures: dict[str, Any] = {"skills": count, "findings": count * per_skill, "steps": [],
                               "gc_pause_ms": 0.0}
    gc_started = [0.0]
    # The longest pause of the collector since the current step began, and its generation. A
    # pause is counted in CPU time of the thread that collects: on a loaded machine the wall time
    # of a collection also holds the time the system gave to other processes meanwhile.
    step_gc = [0.0, 0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_started[0] = time.thread_time()
        else:
            pause = (time.thread_time() - gc_started[0]) * 1000
            figures["gc_pause_ms"] = max(figures["gc_pause_ms"], round(pause, 1))
            if pause > step_gc[0]:
                step_gc[:] = [pause, info["generation"]]

    gc.callbacks.append(on_gc)

    class PaintWatch(QObject):
        def __init__(self, rows: Callable[[], int]) -> None:
            super().__init__()
            self.rows = rows
            self.at: float | None = None

        def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and self.at is None and self.rows() > 0:
                self.at = time.perf_counter()
            return False

    async def run() -> None:
        window = MainWindow(SettingsStore(scratch / "settings.yaml"),
                            cache_path=scratch / "scan-cache.marshal" if corpus else None,
                            session_roots=[root] if corpus else None)
        window.resize(1280, 800)
        window.show()
        panel = window.problems_panel
        window.show_library_problems()
        scanned: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_scan_finished() -> None:
            if not scanned.done():
                scanned.set_result(None)

        window.loader.scan_finished.connect(on_scan_finished)
        watch = PaintWatch(lambda: panel.model.rowCount())
        panel.table.viewport().installEventFilter(watch)
        # The longest stall (wall) and the GUI thread's longest run of its own work (CPU time)
        # between two ticks: on a loaded machine the first also holds time given to others.
        worst = [0.0, 0.0]
        last = [time.perf_counter(), time.thread_time()]

        sampler = Sampler() if profile else None

        def on_tick() -> None:
            now = time.perf_counter()
            cpu = time.thread_time()
            late = (now - last[0]) * 1000 - TICK_MS
            if sampler is not None and late > PROFILE_STALL_MS:
                print(f"    stall {late:.0f} ms ({(cpu - last[1]) * 1000:.0f} ms CPU): "
                      f"{sampler.report(last[0], now)}", flush=True)
            worst[0] = max(worst[0], late)
            worst[1] = max(worst[1], (cpu - last[1]) * 1000)
            last[:] = [now, cpu]

        ticker = QTimer()
        ticker.setTimerType(Qt.TimerType.PreciseTimer)
        ticker.setInterval(TICK_MS)
        ticker.timeout.connect(on_tick)
        await asyncio.sleep(0.3)
        last[:] = [time.perf_counter(), time.thread_time()]
        ticker.start()

        async def step(name: str, action: Callable[[], object] | None) -> None:
            # From now: what this script did before the step (counting findings) is not the
            # step's.
            last[:] = [time.perf_counter(), time.thread_time()]
            worst[:] = [0.0, 0.0]
            step_gc[:] = [0.0, 0]
            if action is None:
                figures["steps"].append((name, None, None, None))
                return
            done = action()
            if asyncio.iscoroutine(done):
                await done
            await asyncio.sleep(SETTLE_SECONDS)
            figures["steps"].append((name, round(worst[0], 1), round(worst[1], 1),
                                     tuple(step_gc)))
            # As it goes, so a run cut short still tells what it measured.
            print(f"[{time.strftime('%H:%M:%S')}, load {os.getloadavg()[0]:.1f}] {name}: "
                  f"stall {worst[0]:.0f} ms, own work {worst[1]:.0f} ms", flush=True)

        started = time.perf_counter()
        worst[:] = [0.0, 0.0]
        step_gc[:] = [0.0, 0]
        if corpus:
            window.start()
            # At 100,000 skills on a loaded machine a scan takes many minutes.
            await asyncio.wait_for(scanned, timeout=3600)
        else:
            window.library.add_root(SkillRoot(root))
            for first in range(0, len(made), BATCH):
                window.library.add_skills(root, made[first:first + BATCH])
                await asyncio.sleep(0)
        while panel.model.rowCount() == 0 or watch.at is None:
            await asyncio.sleep(0.01)
        await asyncio.sleep(1.0)
        figures["skills"] = window.library.skill_count
        figures["findings"] = sum(len(found) for _, _, found in window.library.findings())
        how = "scanned from disk" if corpus else f"handed over in batches of {BATCH}"
        figures["first_paint_s"] = round((watch.at or started) - started, 3)
        figures["rows"] = panel.model.rowCount()
        figures["steps"].append((f"load {figures['skills']:,} skills, {how}",
                                 round(worst[0], 1), round(worst[1], 1), tuple(step_gc)))
        print(f"[{time.strftime('%H:%M:%S')}] loaded, first paint after "
              f"{figures['first_paint_s']:.1f} s: stall {worst[0]:.0f} ms, own work "
              f"{worst[1]:.0f} ms", flush=True)

        header: Any = panel.table.horizontalHeader()
        names = ("severity", "code", "message", "skill", "file", "line")
        # The sort's column moved into the model's index of findings; older panels held it.
        sortable = hasattr(panel.model, "sort_column") or hasattr(panel.model, "findings")
        for column, name in enumerate(names):
            def sort(c: int = column) -> None:
                header.setSortIndicator(c, Qt.SortOrder.DescendingOrder)

            await step(f"sort by {name}", sort if sortable else None)
        severity = getattr(panel, "severity", None)
        await step("filter: warnings", (lambda: severity.setCurrentIndex(2)) if severity else None)
        await step("filter: all severities",
                   (lambda: severity.setCurrentIndex(0)) if severity else None)
        text = getattr(panel, "text_filter", None)
        await step("filter: text 'version'",
                   (lambda: text.setText("version")) if text else None)
        await step("filter: text cleared", (lambda: text.setText("")) if text else None)
        code = getattr(panel, "show_code", None)
        await step("filter: code SK104", (lambda: code("SK104")) if code else None)
        await step("filter: all codes",
                   (lambda: panel.code.setCurrentIndex(0)) if code else None)
        group = getattr(panel, "group_button", None)
        await step("group by skill", (lambda: group.setChecked(True)) if group else None)
        tree: Any = getattr(panel, "tree", None)

        async def expand_first_groups() -> None:
            # As a person does: one skill at a time, each click a turn of the event loop.
            for row in range(60):
                tree.expand(tree.model().index(row, 0))
                await asyncio.sleep(0.02)

        await step("expand 60 skills, one after another",
                   expand_first_groups if group else None)
        await step("ungroup", (lambda: group.setChecked(False)) if group else None)
        changed = window.library.summaries()[17]
        await step("a skill changes (refresh of the whole list)",
                   lambda: window.library.update_skill(changed))
        if fix_code is not None:
            await fix_every(window, panel, fix_code, step, figures)
        ticker.stop()
        if sampler is not None:
            sampler.stop()
        window.close_without_asking()
        window.deleteLater()

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        runner.run(run())
    gc.callbacks.remove(on_gc)
    return figures


async def fix_every(window: Any, panel: Any, code: str,
                    step: Callable[[str, Callable[[], object] | None], Any],
                    figures: dict[str, Any]) -> None:
    """Fix every finding of `code` as a user does: one of them selected, Fix Every, the preview
    accepted once it shows; each phase a step of its own, with its time in `figures`."""
    from PySide6.QtWidgets import QApplication

    from studio.ui.problems.fix_preview import FixPreviewDialog

    def preview() -> Any:
        return next((widget for widget in QApplication.topLevelWidgets()
                     if isinstance(widget, FixPreviewDialog) and widget.isVisible()), None)

    async def until(condition: Callable[[], object]) -> None:
        while not condition():
            await asyncio.sleep(0.02)

    def left() -> int:
        return sum(1 for _, _, found in window.library.findings() for d in found
                   if d.code == code)

    before = left()
    panel.show_code(code)
    await until(lambda: not panel.model.busy and panel.model.rowCount())
    panel.select_row(0)
    await until(lambda: not panel.model.busy)
    if panel.fix_every_code() != code:
        figures["fix"] = f"Fix Every would fix {panel.fix_every_code()}, not {code}: not run"
        print(figures["fix"], flush=True)
        return
    times: dict[str, float] = {}

    async def plan() -> None:
        started = time.perf_counter()
        panel.fix_every_action.trigger()
        # The action starts a task: busy from its first turn until it asks or gives up.
        await until(lambda: window.fix_all.busy or preview() is not None)
        await until(lambda: preview() is not None or not window.fix_all.busy)
        times["plan"] = time.perf_counter() - started

    await step(f"Fix Every {code}: working out the fixes ({before:,} findings)", plan)
    dialog = preview()
    if dialog is None:
        figures["fix"] = f"no preview of {code} showed (nothing to fix?)"
        return
    planned = len(dialog.batch.plans)
    reasons = Counter(item.reason for item in dialog.batch.left_out).most_common(3)
    print(f"Fix Every {dialog.batch.code}: {planned:,} skills to fix, "
          f"{len(dialog.batch.left_out):,} left out; most common "
          f"reasons: {reasons}", flush=True)

    async def apply() -> None:
        started = time.perf_counter()
        dialog.accept()
        await until(lambda: not window.fix_all.busy)
        times["apply"] = time.perf_counter() - started
        await until(lambda: not panel.model.busy)
        # The library's list follows the fixed skills at most every LIBRARY_REFRESH_MS.
        await asyncio.sleep(1.0)
        await until(lambda: not panel.model.busy)
        times["settled"] = time.perf_counter() - started

    await step(f"Fix Every {code}: applying to {planned:,} skills", apply)
    panel.code.setCurrentIndex(0)
    figures["fix"] = (f"Fix Every {code}: worked out in {times['plan']:.1f} s, applied to "
                      f"{planned:,} skills in {times['apply']:.1f} s (panel settled after "
                      f"{times['settled']:.1f} s); findings of {code}: {before:,} before, "
                      f"{left():,} after")
    print(figures["fix"], flush=True)


def working_copy(corpus: Path, scratch: Path) -> Path:
    """A copy of `corpus` for a run that writes (Fix Every), so the kept one stays pristine."""
    copy = scratch / "fixed-corpus"
    if shutil.which("cp"):
        subprocess.run(["cp", "-a", "--", str(corpus), str(copy)], check=True)
    else:
        shutil.copytree(corpus, copy, symlinks=True)
    return copy


def corpus_at(folder: Path, count: int, small: bool = False) -> Path:
    """A public-shaped collection of `count` skills in `folder`, written unless already there."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from corpus import generate_corpus

    marker = folder / f".studio-bench-corpus-{count}{'-small' if small else ''}"
    if not marker.exists():
        if folder.exists() and any(folder.iterdir()):
            raise SystemExit(f"{folder} holds other files; give an empty or new folder to --keep")
        generate_corpus(folder, count, small=small)
        marker.write_text("written by benchmarks/problems_panel.py\n", encoding="utf-8")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=None,
                        help="skills in the library (9,600 scanned, 8,000 synthetic)")
    parser.add_argument("--synthetic", action="store_true",
                        help="hand the library made-up findings instead of scanning a corpus")
    parser.add_argument("--per-skill", type=int, default=5, help="findings per synthetic skill")
    parser.add_argument("--small", action="store_true",
                        help="skills of about 1 KB and no other files (as validate_100k.py)")
    parser.add_argument("--keep", type=Path, help="write the corpus here and reuse it next time")
    parser.add_argument("--fix-every", metavar="CODE",
                        help="then fix every finding of CODE (on a copy of the corpus)")
    parser.add_argument("--profile", action="store_true",
                        help="print where the GUI thread was during each stall over 50 ms")
    parser.add_argument("--no-check", action="store_true", help="report only; never fail")
    args = parser.parse_args()
    count = args.skills or (8_000 if args.synthetic else 9_600)
    with tempfile.TemporaryDirectory(prefix="studio-bench-") as temp:
        corpus = None
        if args.fix_every and args.synthetic:
            parser.error("--fix-every writes files: it needs a corpus on disk, not --synthetic")
        if not args.synthetic:
            corpus = corpus_at(args.keep or Path(temp) / "corpus", count, args.small)
            if args.fix_every and args.keep:
                corpus = working_copy(corpus, Path(temp))
        figures = measure(count, args.per_skill, Path(temp), corpus, args.fix_every,
                          args.profile)
    print(f"{figures['findings']:,} findings over {figures['skills']:,} skills; "
          f"{figures['rows']:,} rows shown; first paint with rows "
          f"{figures['first_paint_s'] * 1000:.0f} ms after the start")
    width = max(len(step[0]) for step in figures["steps"])
    worst = worst_cpu = 0.0
    for name, stall, busy, collected in figures["steps"]:
        if stall is None:
            print(f"  {name.ljust(width)}  (not in this version)")
            continue
        shown = f"longest stall {stall:4.0f} ms, GUI thread's own work {busy:4.0f} ms"
        if collected and collected[0] >= 1:
            shown += f" (longest GC pause {collected[0]:.0f} ms of CPU, generation {collected[1]})"
        worst, worst_cpu = max(worst, stall), max(worst_cpu, busy)
        print(f"  {name.ljust(width)}  {shown}")
    if "fix" in figures:
        print(figures["fix"])
    print(f"longest GUI stall: {worst:.0f} ms (target ≤ {TARGET_STALL_MS:.0f} ms); longest run of "
          f"the GUI thread's own work between two ticks: {worst_cpu:.0f} ms of CPU (a stall longer "
          f"than that is time the system gave to other processes); longest garbage-collector "
          f"pause in the run: {figures['gc_pause_ms']:.0f} ms of CPU; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 1 if worst > TARGET_STALL_MS and not args.no_check else 0


if __name__ == "__main__":
    raise SystemExit(main())

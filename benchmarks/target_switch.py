"""How long switching a library root's validation target takes, and whether the window stays
responsive meanwhile.

    python benchmarks/target_switch.py [--skills N] [--no-check]

Generates N skills as benchmarks/gui_open.py does (one in 25 has a `version` field, outside the
spec), opens the real main window offscreen on them with the Problems panel on the whole library,
then picks Claude Code for the root and, once that is done, Spec again. For each switch it prints
the time until every skill is judged again, the GUI thread's longest stall (the worst lateness of
a 5 ms timer) and how many library rows were removed on the way (none: the skills are validated
again in place). Exits 1 if a stall passes 100 ms or a row was removed, unless --no-check.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gui_open import generate  # noqa: E402
from offscreen import offscreen_app  # noqa: E402

TARGET_STALL_MS = 100.0
TICK_MS = 5


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def measure(root: Path, scratch: Path) -> list[dict[str, Any]]:
    app = offscreen_app(scratch)

    import qasync
    from PySide6.QtCore import Qt, QTimer

    from studio.settings import SettingsStore
    from studio.ui.mainwindow import MainWindow

    rows: list[dict[str, Any]] = []

    async def run() -> None:
        window = MainWindow(SettingsStore(scratch / "settings.yaml"),
                            cache_path=scratch / "scan-cache.marshal", session_roots=[root])
        loop = asyncio.get_running_loop()
        window.show()
        window.show_library_problems()
        done: asyncio.Future[None] = loop.create_future()
        window.loader.scan_finished.connect(lambda: _settle(done))
        window.start()
        await asyncio.wait_for(done, timeout=300)
        removed = [0]
        window.library_model.rowsRemoved.connect(lambda *_: removed.__setitem__(0, removed[0] + 1))
        for target in ("claude-code", "spec"):
            figures: dict[str, Any] = {"target": target, "longest_stall_ms": 0.0}
            last = [time.perf_counter()]

            def on_tick(figures: dict[str, Any] = figures, last: list[float] = last) -> None:
                now = time.perf_counter()
                figures["longest_stall_ms"] = max(figures["longest_stall_ms"],
                                                  (now - last[0]) * 1000 - TICK_MS)
                last[0] = now

            ticker = QTimer()
            ticker.setTimerType(Qt.TimerType.PreciseTimer)
            ticker.setInterval(TICK_MS)
            ticker.timeout.connect(on_tick)
            finished: asyncio.Future[None] = loop.create_future()
            window.loader.scan_finished.connect(lambda f=finished: _settle(f))
            removed[0] = 0
            started = last[0] = time.perf_counter()
            ticker.start()
            window.roots.set_target(root, target)
            await asyncio.wait_for(finished, timeout=300)
            figures["revalidated_s"] = time.perf_counter() - started
            await asyncio.sleep(0.5)
            ticker.stop()
            figures["rows_removed"] = removed[0]
            figures["skills"] = window.library.skill_count
            figures["findings"] = window.problems_panel.model.findings.finding_count()
            rows.append(figures)
        window.close_without_asking()
        window.deleteLater()

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        runner.run(run())
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--no-check", action="store_true", help="report only; never fail")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="studio-bench-") as temp:
        root = Path(temp) / "skills"
        generate(root, args.skills)
        rows = measure(root, Path(temp) / "scratch")
    print(f"{'target':12} {'skills':>8} {'findings':>9} {'judged again':>13} "
          f"{'longest stall':>14} {'rows removed':>13}")
    for row in rows:
        print(f"{row['target']:12} {row['skills']:>8,} {row['findings']:>9,} "
              f"{row['revalidated_s']:>11.2f} s {row['longest_stall_ms']:>11.0f} ms "
              f"{row['rows_removed']:>13}")
    print(f"{'target':12} {'':>8} {'':>9} {'':>13} {'≤ ' + str(int(TARGET_STALL_MS)) + ' ms':>14} "
          f"{0:>13}")
    failed = [row for row in rows
              if row["longest_stall_ms"] > TARGET_STALL_MS or row["rows_removed"]]
    return 1 if failed and not args.no_check else 0


if __name__ == "__main__":
    sys.exit(main())

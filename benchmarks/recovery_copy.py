"""What keeping a recovery copy of unsaved edits costs the window's thread, on the largest text the
editor opens.

    python benchmarks/recovery_copy.py [--megabytes N] [--rounds N]

Opens a SKILL.md of N MiB (default 4, the editor's limit) in an editor tab offscreen, then, each
round, types one character and keeps the copy as the debounce timer would: it reports the time
the window's thread spends (reading the text and handing it over), the time until the copy is on
disk (JSON, temp file, fsync and rename, on the writer's thread), median and worst. Nothing is
checked: the figures go in the README.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="studio-bench-") as scratch_name:
        scratch = Path(scratch_name)
        os.environ["STUDIO_DATA_DIR"] = str(scratch / "data")
        from PySide6.QtGui import QFont
        from PySide6.QtWidgets import QApplication, QStatusBar

        from studio.editing import RecoveryStore
        from studio.skills import load_skill
        from studio.ui.editor.autosaving import Autosaver
        from studio.ui.editor.editor_tab import SkillEditorTab
        from studio.ui.status_messages import Feedback

        app = QApplication.instance() or QApplication(sys.argv[:1])
        assert isinstance(app, QApplication)
        skill = scratch / "big-skill"
        skill.mkdir()
        line = "Some instructions for the agent, one line of many.\n"
        body = line * int(args.megabytes * 1024 * 1024 / len(line))
        (skill / "SKILL.md").write_text(
            f"---\nname: big-skill\ndescription: A large skill. Use when measuring.\n---\n{body}",
            encoding="utf-8")
        tab = SkillEditorTab(load_skill(skill), QFont())
        autosaver = Autosaver(RecoveryStore(scratch / "recovery"), lambda: [tab],
                              Feedback(tab, QStatusBar()))
        autosaver.track(tab)
        on_thread: list[float] = []
        written: list[float] = []
        for round_number in range(args.rounds):
            tab.raw_editor.textCursor().insertText(str(round_number % 10))
            start = time.perf_counter()
            autosaver.autosave_now()
            handed = time.perf_counter()
            assert autosaver.flush()
            on_thread.append((handed - start) * 1000)
            written.append((time.perf_counter() - start) * 1000)
        autosaver.stop()
    print(json.dumps({
        "megabytes": args.megabytes, "rounds": args.rounds,
        "window_thread_ms": {"median": round(statistics.median(on_thread), 1),
                             "worst": round(max(on_thread), 1)},
        "on_disk_ms": {"median": round(statistics.median(written), 1),
                       "worst": round(max(written), 1)},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

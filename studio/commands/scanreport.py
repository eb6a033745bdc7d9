"""The threat scan's report on the command line, shared by `studio scan` and `studio validate
--threats`: one report, one set of exit codes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.commands.scanjudge import JudgeSettings

EXIT_INTERRUPTED = 130


def scan_report(paths: list[Path], output: str, fail_on: str, command: str,
                judge: JudgeSettings | None = None, cached: bool = True) -> int:
    """Scan `paths` (and, with `judge`, have a model judge each skill), print the report in
    `output`'s format, and give the exit code: 2 when a path holds no skill, 130 when the user
    stopped the judge (what finished is reported), 1 when a finding is at `fail_on` or above,
    else 0. A judge that fails changes no exit code: it is told on stderr and in the report.
    With `cached`, the rules' findings of a skill whose files did not change since a scan kept
    them are the kept ones (`threatscan.ThreatCache`, in the user's cache folder)."""
    from studio.commands.textsafe import one_line
    from studio.paths import cache_dir
    from studio.threatscan import CACHE_FILE, ThreatCache, render, scan_skill, skill_folders

    folders, problems = skill_folders(paths)
    for problem in problems:
        sys.stderr.write(f"studio {command}: {one_line(problem)}\n")
    cache = ThreatCache(cache_dir() / CACHE_FILE) if cached and folders else None
    try:
        scans = [scan_skill(folder, cache) for folder in folders]
    finally:
        if cache is not None:
            cache.close()
    run = None
    if judge is not None and scans:
        from studio.commands.scanjudge import judge_scans

        run = judge_scans(scans, judge, sys.stderr)
    sys.stdout.write(render(scans, output, run))
    if problems:
        return 2
    if run is not None and run.interrupted:
        return EXIT_INTERRUPTED
    if fail_on != "none" and any(scan.at_least(fail_on) for scan in scans):
        return 1
    return 0

"""The threat scan's report on the command line, shared by `studio scan` and `studio validate
--threats`: one report, one set of exit codes."""

from __future__ import annotations

import sys
from pathlib import Path


def scan_report(paths: list[Path], output: str, fail_on: str, command: str) -> int:
    """Scan `paths`, print the report in `output`'s format, and give the exit code: 2 when a path
    holds no skill, 1 when a finding is at `fail_on` or above, else 0."""
    from studio.commands.textsafe import one_line
    from studio.threatscan import render, scan_skill, skill_folders

    folders, problems = skill_folders(paths)
    for problem in problems:
        sys.stderr.write(f"studio {command}: {one_line(problem)}\n")
    scans = [scan_skill(folder) for folder in folders]
    sys.stdout.write(render(scans, output))
    if problems:
        return 2
    if fail_on != "none" and any(scan.at_least(fail_on) for scan in scans):
        return 1
    return 0

"""Whether git ignores a path in a project: Claude Code's nested skill discovery skips ignored
folders (its CHANGELOG, 2.1.69), so the catalog asks git itself rather than reading .gitignore
files its own way."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

TIMEOUT_SECONDS = 10


def ignored(project: Path, path: Path) -> bool:
    """Whether `path` is ignored in the git work tree at `project` (False without git or
    outside a work tree)."""
    git = shutil.which("git")
    if git is None:
        return False
    try:
        done = subprocess.run(
            [git, "-C", str(project), "check-ignore", "-q", "--", str(path)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


__all__ = ["ignored"]

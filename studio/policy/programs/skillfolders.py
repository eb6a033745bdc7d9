"""Skills are never deleted by a command: a model may draft and update skills, but removing one
stays a human action in the window (to the trash). This finds whether a deletion would take a
SKILL.md with it: the file itself, or a folder holding one a few levels down (a skill, or a
folder of skills)."""

from __future__ import annotations

import os
from pathlib import Path

SKILL_FILES = ("SKILL.md", "skill.md")
DEPTH = 3
MAX_ENTRIES = 5000


def skill_deleted(path: Path, recursive: bool) -> Path | None:
    """The SKILL.md that deleting `path` (recursively or not) would remove, or None. A link is
    deleted itself, not what it points to, so it never takes a skill with it."""
    if os.path.islink(path):
        return None
    if path.name in SKILL_FILES and path.is_file():
        return path
    if not recursive or not path.is_dir():
        return None
    return _first_skill_file(path)


def _first_skill_file(top: Path) -> Path | None:
    seen = 0
    level = [top]
    for _ in range(DEPTH + 1):
        below: list[Path] = []
        for folder in level:
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        seen += 1
                        if seen > MAX_ENTRIES:
                            return None
                        if entry.name in SKILL_FILES and entry.is_file(follow_symlinks=False):
                            return Path(entry.path)
                        if entry.is_dir(follow_symlinks=False):
                            below.append(Path(entry.path))
            except OSError:
                continue
        level = below
    return None

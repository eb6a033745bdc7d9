"""Paths that point inside a zip archive of skills, such as `bundle.zip/pdf-tools/SKILL.md`."""

from __future__ import annotations

from pathlib import Path, PurePosixPath


def enclosing_zip(path: Path) -> tuple[Path, PurePosixPath] | None:
    """(archive, member inside it) when `path` points inside a .zip file, else None."""
    for parent in path.parents:
        if parent.suffix.lower() == ".zip" and parent.is_file():
            return parent, PurePosixPath(path.relative_to(parent).as_posix())
    return None

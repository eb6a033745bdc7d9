"""Paths that point inside a zip archive of skills, such as `bundle.zip/pdf-tools/SKILL.md`."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

# A `.skill` file is a zip too: what skill-creator's package_skill.py and `studio pack` make, and
# what claude.ai takes as an upload.
ZIP_SUFFIXES = (".zip", ".skill")


def is_zip_file(path: Path) -> bool:
    """True for a file a library opens as a zip archive of skills (`.zip` or `.skill`)."""
    return path.suffix.lower() in ZIP_SUFFIXES and path.is_file()


def enclosing_zip(path: Path) -> tuple[Path, PurePosixPath] | None:
    """(archive, member inside it) when `path` points inside a zip archive, else None."""
    for parent in path.parents:
        if is_zip_file(parent):
            return parent, PurePosixPath(path.relative_to(parent).as_posix())
    return None

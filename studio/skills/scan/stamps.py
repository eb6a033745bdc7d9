"""Stamps: a path with the size, mtime and mode it had, and whether a set of them still holds.

A report on skills depends on the files and folders it read; while every one of them keeps its
stamp, the report still holds. Checking that takes one `stat` per path and nothing else, so the
module stays free of the parser and the rules.
"""

from __future__ import annotations

import os

Stamp = tuple[str, int, int, int]


def stamp_of(path: str) -> Stamp:
    """A path's size, mtime and mode, or -1 for each when there is nothing there."""
    try:
        info = os.stat(path)
    except OSError:
        return (path, -1, -1, -1)
    return (path, info.st_size, info.st_mtime_ns, info.st_mode)


def unchanged(stamps: list[Stamp]) -> bool:
    """Whether every path still has the stamp it had (a missing path is still missing)."""
    stat = os.stat
    for path, size, mtime, mode in stamps:
        try:
            info = stat(path)
        except OSError:
            if size != -1:
                return False
            continue
        if info.st_mtime_ns != mtime or info.st_size != size or info.st_mode != mode:
            return False
    return True

"""The library scan as a child process:
`python -m studio.skills.scan.process [--cache F] [--hidden] [--target T] ROOT...`.

Why a process and not a thread: scanning 10,000 skills is seconds of pure Python, and a thread
would hold the GIL for most of that time, so the GUI thread would stutter. Threads as such are
safe beside Qt as long as they never call into Qt: short pure-Python work, such as the chat
pane's lexer warm-up, may run in one. (The reference-count corruption once blamed on threads is
a bug of one PySide6 build on Python 3.11 that happens without any thread; `studio.ui.qtcheck`
refuses to start on it.) This module imports no Qt.

It scans each root in two passes (`studio.skills.scan.listed_first`: the skills listed, then
validated) and writes frames to stdout (`studio.skills.scan.frames`), each a tuple:
`("listed", root, [entry, ...])` (each a listing tuple, or a cache tuple when the cache had the
skill: `studio.skills.scan.entries`), `("skills", root, [entry, ...])` (the listed skills
validated, as cache tuples), `("root", root, error or None, [folder, ...])` (the folders below
the root that are not skills, for the window to watch), `("end",)`.

Nobody else speaks this protocol: `studio.skills.scan.client.ScanClient` builds the command
line and turns the frames into typed events, beside this module, so both change together.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any, BinaryIO

from studio.skills.clients import SPEC, TARGETS
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.frames import write_frame
from studio.skills.scan.listed_first import scan_listed_first
from studio.skills.scan.roots import SkillRoot

FLUSH_COUNT = 250
FLUSH_SECONDS = 0.03


class _Batcher:
    """Skills of one root into frames of one kind ("listed" or "skills"), in the order given."""

    def __init__(self, out: BinaryIO, root: str) -> None:
        self.out = out
        self.root = root
        self.kind = "listed"
        self.pending: list[tuple[Any, ...]] = []
        self.last = time.monotonic()

    def listed(self, entry: tuple[Any, ...]) -> None:
        self._add("listed", entry)

    def checked(self, entry: tuple[Any, ...]) -> None:
        self._add("skills", entry)

    def _add(self, kind: str, entry: tuple[Any, ...]) -> None:
        """One skill, as the scan hands it over: already the tuple the frame carries."""
        if kind != self.kind:
            self.flush()
            self.kind = kind
        self.pending.append(entry)
        if len(self.pending) >= FLUSH_COUNT or time.monotonic() - self.last > FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            write_frame(self.out, (self.kind, self.root, self.pending))
            self.pending = []
        self.last = time.monotonic()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.skills.scan.process")
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--hidden", action="store_true")
    parser.add_argument("--target", choices=TARGETS, default=SPEC)
    parser.add_argument("--linked-root", action="append", default=[], type=Path,
                        help="another root of the library: links into it are followed")
    parser.add_argument("roots", nargs="*", type=Path)
    args = parser.parse_args(argv)
    linked = {os.path.realpath(path) for path in [*args.linked_root, *args.roots]}
    out = sys.stdout.buffer
    cache = ScanCache(args.cache, args.target) if args.cache is not None else None
    for path in args.roots:
        batcher = _Batcher(out, str(path))
        others = tuple(sorted(linked - {os.path.realpath(path)}))
        # Streamed: this process holds the walk of the skills not yet validated, not the library.
        scan = scan_listed_first(SkillRoot(path, args.hidden), batcher.listed, batcher.checked,
                                 cache, args.target, others)
        batcher.flush()
        write_frame(out, ("root", str(path), scan.error, [stamp[0] for stamp in scan.folders]))
    if cache is not None:
        cache.save()
    write_frame(out, ("end",))
    return 0


if __name__ == "__main__":
    sys.exit(main())

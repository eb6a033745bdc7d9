"""The scan process seen from the window: `ScanClient` builds its command line and turns the bytes
it writes into typed events, so the window only pumps bytes in and gets events out. The
protocol (`studio.skills.scan.process`, `frames`, `entries`) stays in this package.

The skills of an event are decoded only when asked for (`SkillsFound.summaries`), a slice at a
time: a library of 10,000 skills arrives in a few frames, and the window moves them into the
library a batch per tick of its timer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from studio.skills.clients import SPEC
from studio.skills.scan import process
from studio.skills.scan.entries import decode, encode
from studio.skills.scan.frames import read_frames
from studio.skills.summary import SkillSummary


class SkillsFound:
    """Skills of one root, in the walk's order: listed (not yet validated: `SkillSummary.checked`
    is False, and the validated summary follows) or validated.

    Attributes:
        root: the root they were found under."""

    __slots__ = ("_entries", "root")

    def __init__(self, root: Path, entries: Sequence[tuple[Any, ...]]) -> None:
        self.root = root
        self._entries = entries

    @classmethod
    def of(cls, root: Path, summaries: Iterable[SkillSummary]) -> SkillsFound:
        """The event a scan would send for these summaries (for a caller that has them already)."""
        return cls(root, [encode(summary) for summary in summaries])

    def __len__(self) -> int:
        return len(self._entries)

    def summaries(self, start: int = 0, stop: int | None = None) -> list[SkillSummary]:
        """The summaries of the skills from `start` to `stop`, decoded now."""
        root = self.root
        return [decode(root, entry) for entry in self._entries[start:stop]]


class RootScanned(NamedTuple):
    """A root is scanned: every skill of it was sent before this.

    Attributes:
        root: the root.
        error: why it could not be scanned, or None.
        folders: the folders below it that are not skills (where new skills may appear)."""

    root: Path
    error: str | None
    folders: list[str]


class ScanEnded(NamedTuple):
    """Every root was scanned and the cache saved; the process ends next."""


ScanEvent = SkillsFound | RootScanned | ScanEnded


class ScanClient:
    """One run of the scan process: its command line, and its output as events."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    @staticmethod
    def arguments(
        roots: Iterable[Path],
        *,
        cache: Path | None = None,
        hidden: bool = False,
        target: str = SPEC,
        linked_roots: Iterable[Path] = (),
    ) -> list[str]:
        """What follows `sys.executable` to scan `roots` (links into `linked_roots`, the library's
        other roots, are followed): every path after `--`, so none is read as an option."""
        arguments = ["-m", process.__name__]
        if cache is not None:
            arguments.append(f"--cache={cache}")
        if hidden:
            arguments.append("--hidden")
        if target != SPEC:
            arguments.append(f"--target={target}")
        for path in linked_roots:
            arguments.append(f"--linked-root={path}")
        return [*arguments, "--", *(str(root) for root in roots)]

    def feed(self, data: bytes | bytearray | memoryview) -> list[ScanEvent]:
        """The events complete in what the process wrote so far (`data` is its newest output)."""
        self._buffer += data
        return [_event(frame) for frame in read_frames(self._buffer)]


def _event(frame: tuple[Any, ...]) -> ScanEvent:
    kind = frame[0]
    if kind == "listed" or kind == "skills":
        return SkillsFound(Path(frame[1]), frame[2])
    if kind == "root":
        return RootScanned(Path(frame[1]), frame[2], frame[3])
    if kind == "end":
        return ScanEnded()
    raise ValueError(f"the scan process sent a message of an unknown kind: {kind!r}")

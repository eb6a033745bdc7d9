"""A cache of validation results keyed by each skill's files' paths, sizes and mtimes, so that a
rescan of an unchanged library reads no SKILL.md at all.

The file is written with `marshal` (plain tuples and strings only: loading it cannot run code) and
starts with a version stamp; a stamp from another version or a damaged file is simply ignored.
"""

from __future__ import annotations

import marshal
import os
import zlib
from pathlib import Path
from typing import Any

from studio import __version__
from studio.fsutil import atomic_write_bytes
from studio.skills.clients import SPEC

# What a cached summary says depends on the code of these, under studio/skills: the rules, the
# parser and the files it reads, the model, and how a scan encodes a summary.
RULES_CODE = ("checks", "yaml", "clients.py", "codes.py", "files.py", "model.py", "parse.py",
              "summary.py", "scan/entries.py")
_SKILLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rules_version(skills: str = _SKILLS) -> str:
    """A CRC of the text of every module in `RULES_CODE` (below `skills`): a rule changed, the
    caches kept before are ignored, with no number to remember to raise. Read at each start of
    `studio validate`, without loading the rules: 23 files, 220 kB, under a millisecond (zlib,
    not hashlib, which would load OpenSSL). Where the sources cannot be read, the version alone
    stamps the cache."""
    crc = 0
    try:
        for part in RULES_CODE:
            path = os.path.join(skills, part)
            names = (sorted(os.path.join(path, name) for name in os.listdir(path)
                            if name.endswith(".py"))
                     if os.path.isdir(path) else [path])
            for name in names:
                with open(name, "rb") as handle:
                    crc = zlib.crc32(handle.read(), crc)
    except OSError:
        return "unread"
    return f"{crc:08x}"


RULES_VERSION = rules_version()
STAMP = f"skill-studio-cache/{__version__}/{RULES_VERSION}"
# The target of a cache of headers (`collect_headers`): what SKILL.md alone says of each skill.
HEADERS = "headers"

Fingerprint = tuple[Any, ...]


class ScanCache:
    """Maps a key (a SKILL.md or zip path) to (fingerprint, cached summaries), as one validation
    target (`studio.skills.checks.clients`) judged them, or as headers (`HEADERS`): a file kept
    for another target is ignored.

    Attributes:
        STAMP: what a file kept by this version of the scan starts with (a report kept beside
            the cache, such as `studio validate`'s, holds only while it is the same).
        HEADERS: the target of a cache of `collect_headers`."""

    STAMP = STAMP
    HEADERS = HEADERS

    def __init__(self, path: Path | None, target: str = SPEC) -> None:
        self.path = path
        self.target = target
        self._stamp = STAMP if target == SPEC else f"{STAMP}/{target}"
        self._entries: dict[str, tuple[Fingerprint, Any]] = {}
        self._fresh: dict[str, tuple[Fingerprint, Any]] = {}
        self._changed = False
        if path is not None:
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            with open(path, "rb") as handle:
                stamp, entries = marshal.loads(handle.read())
        except (OSError, EOFError, ValueError, TypeError):
            return
        if stamp == self._stamp and isinstance(entries, dict):
            self._entries = entries

    def get(self, key: str, fingerprint: Fingerprint) -> Any | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] != fingerprint:
            return None
        self._fresh[key] = entry
        return entry[1]

    def holds_any(self, prefix: str) -> bool:
        """Whether any entry's key starts with `prefix` (a root's path and a separator)."""
        return any(key.startswith(prefix) for key in self._entries)

    def put(self, key: str, fingerprint: Fingerprint, value: Any) -> None:
        self._fresh[key] = (fingerprint, value)
        self._changed = True

    def save(self) -> None:
        """Keep what this scan saw (and what it did not reach); drop nothing else silently."""
        if self.path is None:
            return
        if not self._changed and len(self._fresh) == len(self._entries):
            return
        merged = {**self._entries, **self._fresh}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, marshal.dumps((self._stamp, merged)), durable=False)
        except OSError:
            return
        self._entries = merged
        self._changed = False

    def forget_missing(self, seen: set[str], under: str) -> None:
        """Drop entries below `under` that a complete scan of it did not see."""
        for key in [k for k in self._entries if k.startswith(under) and k not in seen]:
            del self._entries[key]
            self._changed = True

"""A cache of validation results keyed by each skill's files' paths, sizes and mtimes, so that a
rescan of an unchanged library reads no SKILL.md at all.

The file is an SQLite database: a version stamp, and an entry a key, each written with
`marshal` (plain tuples and strings only: loading it cannot run code). A stamp from another
version or a damaged file is simply ignored, and the file made anew by the next scan.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sqlite3
from pathlib import Path
from typing import Any

from studio import __version__
from studio.fsutil import sources_crc
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
    return sources_crc(skills, RULES_CODE) or "unread"


RULES_VERSION = rules_version()
STAMP = f"skill-studio-cache/{__version__}/{RULES_VERSION}"
# The target of a cache of headers (`collect_headers`): what SKILL.md alone says of each skill.
HEADERS = "headers"

Fingerprint = tuple[Any, ...]

# Entries written to the file at a time: what a scan holds of its fresh results.
BATCH = 512
# Entries read at a time, in the keys' order, by a scan asking for them.
WINDOW = 256


class ScanCache:
    """Maps a key (a SKILL.md or zip path) to (fingerprint, cached summaries), as one validation
    target (`studio.skills.checks.clients`) judged them, or as headers (`HEADERS`): a file kept
    for another target is ignored, and replaced by the first entry this one puts.

    The entries live in an SQLite file, one row a key holding the marshalled pair, and are
    read a key at a time: a scan of 100,000 skills holds no more of them than a batch of the
    ones it puts (a dict of them all, saved as one marshalled value, took 620 MB). A cache
    that cannot be read or written (a damaged file, a full disk, another process holding the
    lock too long) only stops caching; the scan goes on.

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
        self._db: sqlite3.Connection | None = None
        # Whether the file's entries were kept for this stamp (else none of them is used).
        self._ours = False
        self._pending: dict[bytes, bytes] = {}
        # Entries read ahead (see `_read`), all keys from `_window_low` to `_window_high`.
        self._window: dict[bytes, bytes] = {}
        self._window_low = b""
        self._window_high: bytes | None = None
        if path is not None and path.is_file():
            self._open(path)

    def _open(self, path: Path, anew: bool = True) -> sqlite3.Connection | None:
        try:
            db = sqlite3.connect(path, timeout=2.0)
        except sqlite3.Error:
            return None
        try:
            db.execute("PRAGMA synchronous=OFF")  # a cache: a crash of the machine only costs it
            db.execute("CREATE TABLE IF NOT EXISTS meta (stamp TEXT)")
            db.execute("CREATE TABLE IF NOT EXISTS entries (key BLOB PRIMARY KEY, value BLOB) "
                       "WITHOUT ROWID")
            row = db.execute("SELECT stamp FROM meta").fetchone()
        except sqlite3.DatabaseError as exc:
            with contextlib.suppress(sqlite3.Error):
                db.close()
            if isinstance(exc, sqlite3.OperationalError) or not anew:
                return None  # locked by another scan too long, or unwritable: no cache
            # Not a cache of ours (an older version's marshalled file) or damaged: made anew.
            try:
                path.unlink(missing_ok=True)
            except OSError:
                return None
            return self._open(path, anew=False)
        self._db = db
        self._ours = row is not None and row[0] == self._stamp
        return db

    def _writable(self) -> sqlite3.Connection | None:
        """The file, opened (and made) for writing this target's entries."""
        if self.path is None:
            return None
        db = self._db
        if db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                return None
            db = self._open(self.path)
            if db is None:
                return None
        if not self._ours:
            try:
                db.execute("DELETE FROM entries")
                db.execute("DELETE FROM meta")
                db.execute("INSERT INTO meta VALUES (?)", (self._stamp,))
            except sqlite3.Error:
                self._give_up()
                return None
            self._ours = True
        return db

    def _give_up(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db, self.path = None, None
        self._pending.clear()

    def get(self, key: str, fingerprint: Fingerprint) -> Any | None:
        if self._db is None or not self._ours:
            return None
        name = _key(key)
        data = self._pending.get(name)
        if data is None:
            data = self._read(name)
            if data is None:
                return None
        try:
            kept, value = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        return value if kept == fingerprint else None

    def _read(self, name: bytes) -> bytes | None:
        """The stored entry of `name`, from the window of entries read with it: a scan asks
        for skills in the walk's order, nearly the keys' own, so one query of WINDOW rows
        answers the next few hundred asks (a query a key took a third of a rescan)."""
        window = self._window
        high = self._window_high
        if high is None or not self._window_low <= name <= high:
            assert self._db is not None
            try:
                rows = self._db.execute(
                    "SELECT key, value FROM entries WHERE key >= ? ORDER BY key LIMIT ?",
                    (name, WINDOW)).fetchall()
            except sqlite3.Error:
                self._give_up()
                return None
            window = self._window = dict(rows)
            self._window_low = name
            # Every key between the asked one and the last read is in the window; past the
            # end of the entries, every key above the asked one is absent.
            self._window_high = rows[-1][0] if len(rows) == WINDOW else _LAST
        return window.get(name)

    def holds_any(self, prefix: str) -> bool:
        """Whether any entry's key starts with `prefix` (a root's path and a separator)."""
        if self._db is None or not self._ours:
            return False
        low = _key(prefix)
        if any(name.startswith(low) for name in self._pending):
            return True
        try:
            return self._db.execute("SELECT 1 FROM entries WHERE key >= ? AND key < ? LIMIT 1",
                                    (low, _after(low))).fetchone() is not None
        except sqlite3.Error:
            self._give_up()
            return False

    def put(self, key: str, fingerprint: Fingerprint, value: Any) -> None:
        if self.path is None:
            return
        self._pending[_key(key)] = marshal.dumps((fingerprint, value))
        if len(self._pending) >= BATCH:
            self._flush()

    def _flush(self) -> sqlite3.Connection | None:
        db = self._writable()
        if db is None:
            self._pending.clear()
            return None
        self._window_high = None  # what it read may be out of date now
        try:
            db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?)", self._pending.items())
        except sqlite3.Error:
            self._give_up()
            return None
        self._pending.clear()
        return db

    def save(self) -> None:
        """Write what is not written yet. What this scan did not reach stays; nothing else is
        dropped silently (see `forget_missing`)."""
        if self._pending:
            self._flush()
        if self._db is not None and self._db.in_transaction:
            try:
                self._db.commit()
            except sqlite3.Error:
                self._give_up()

    def forget_missing(self, seen: set[str], under: str) -> None:
        """Drop entries below `under` that a complete scan of it did not see."""
        if self._db is None or not self._ours:
            return
        low = _key(under)
        self._window_high = None
        for name in [name for name in self._pending if name.startswith(low)]:
            if _text(name) not in seen:
                del self._pending[name]
        try:
            gone = [(name,) for (name,) in self._db.execute(
                "SELECT key FROM entries WHERE key >= ? AND key < ?", (low, _after(low)))
                if _text(name) not in seen]
            if gone:
                self._db.executemany("DELETE FROM entries WHERE key = ?", gone)
        except sqlite3.Error:
            self._give_up()


# Above every key (a path's UTF-8 never holds the byte FF).
_LAST = b"\xff"


def _key(text: str) -> bytes:
    # A path may hold bytes that are no UTF-8 (kept as surrogates): SQLite's text could not.
    return text.encode("utf-8", "surrogatepass")


def _text(key: bytes) -> str:
    return key.decode("utf-8", "surrogatepass")


def _after(prefix: bytes) -> bytes:
    """The least key above every key starting with `prefix` (which ends in a separator)."""
    return prefix[:-1] + bytes([prefix[-1] + 1])

"""Threat scans kept on disk, so that a rescan of an unchanged library reads and parses nothing.

Each skill's findings are kept under its folder's absolute path with the stamp of its files
(`files.aged_stamp`: every file's path, size, modification and change times and inode, and what
its walk reported), and the whole file under a stamp of the scanner: the studio's version, the
text of the code that decides findings (the threat rules, the shell parser they read with, the
validator's first rules) and Python's version (the `ast` the Python rules read). A change to
any of them and every entry is ignored, then replaced.

The file is an SQLite database in write-ahead mode (concurrent scans wait for each other's
writes, never see half of one); each entry is `marshal`led plain tuples with a CRC of its
findings, checked before they are used: a damaged entry is scanned anew, a damaged file made
anew. A skill whose files changed in the last moments is scanned but not kept: a coarse clock
can give a second change within the same tick the same stamp."""

from __future__ import annotations

import contextlib
import marshal
import os
import sqlite3
import sys
import time
import zlib
from pathlib import Path

from studio import __version__
from studio.fsutil import sources_crc
from studio.threatscan.findings import LEVELS, Finding

CACHE_FILE = "threats-cache.sqlite"
# What decides a scan's findings, under studio/: the rules, the shell parser, the validator's
# first rules (and the rest of its checks, read with them) and their codes.
SCANNER_CODE = ("threatscan", "policy/shell", "skills/checks", "skills/codes.py", "textshow.py")
_STUDIO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Files changed this recently (ns) are not kept: FAT's clock ticks every 2 s, most others' less.
FRESH_NS = 3_000_000_000
# Entries written at a time.
BATCH = 256
_LEVELS = frozenset(LEVELS)


def scanner_stamp(studio: str = _STUDIO) -> str:
    """The stamp a cache is kept under: a CRC of the scanner's code (read, not loaded)."""
    code = sources_crc(studio, SCANNER_CODE) or "unread"
    return f"threats/{__version__}/{code}/py{sys.version_info[0]}.{sys.version_info[1]}"


class ThreatCache:
    """Findings kept per skill folder; `get` gives them back only for the same stamp of its
    files, `put` keeps new ones (written in batches, and by `close`). Made for one scan at a
    time in one thread; other processes may use the same file meanwhile. A cache that cannot
    be opened or written (a read-only folder, a full disk, another scan holding the lock too
    long) stops caching: the scan goes on, uncached."""

    def __init__(self, path: Path, stamp: str | None = None, fresh_ns: int | None = None) -> None:
        self.path = path
        self.fresh_ns = FRESH_NS if fresh_ns is None else fresh_ns
        self.stamp = stamp if stamp is not None else scanner_stamp()
        self._db: sqlite3.Connection | None = None
        self._ours = False
        self._tried = False
        self._pending: dict[bytes, bytes] = {}
        self.started_ns = time.time_ns()

    def _connect(self) -> sqlite3.Connection | None:
        if not self._tried:
            self._tried = True
            self._db = self._open(anew=True)
        return self._db

    def _open(self, anew: bool) -> sqlite3.Connection | None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        except (OSError, sqlite3.Error):
            return None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS meta (stamp TEXT)")
            db.execute("CREATE TABLE IF NOT EXISTS entries (key BLOB PRIMARY KEY, value BLOB) "
                       "WITHOUT ROWID")
            row = db.execute("SELECT stamp FROM meta").fetchone()
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                db.close()
            if anew and _damaged(exc):
                return self._rebuilt()
            return None  # locked too long, or not writable: no cache this time
        self._ours = row is not None and row[0] == self.stamp
        return db

    def _rebuilt(self) -> sqlite3.Connection | None:
        """The file made anew: it is not a database, or a damaged one."""
        try:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        except OSError:
            return None
        return self._open(anew=False)

    def _failed(self, exc: sqlite3.Error) -> None:
        """Stop using the file; a damaged one is made anew for the next entries."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db, self._ours = None, False
        if _damaged(exc):
            self._db = self._rebuilt()

    def get(self, directory: Path, stamp: str) -> tuple[list[Finding], int] | None:
        """The findings kept for the skill at `directory` and the count of files it read, when
        kept with `stamp`; None when not kept, kept for other files, or not readable as kept."""
        key = _key(directory)
        value = self._pending.get(key)
        if value is None:
            db = self._connect()
            if db is None or not self._ours:
                return None
            try:
                row = db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as exc:
                self._failed(exc)
                return None
            if row is None:
                return None
            value = row[0]
        return _loaded(value, self.stamp, stamp)

    def put(self, directory: Path, stamp: str, newest_ns: int, findings: list[Finding],
            files: int) -> None:
        """Keep the findings of the skill at `directory` under the stamp of its files, unless
        one of them changed so recently (`newest_ns`) that the stamp may not show the next
        change."""
        if newest_ns > self.started_ns - self.fresh_ns:
            return
        kept = marshal.dumps(([tuple(finding) for finding in findings], files))
        value = marshal.dumps((self.stamp, stamp, zlib.crc32(kept), kept))
        self._pending[_key(directory)] = value
        if len(self._pending) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        db = self._connect()
        if db is None or not pending:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            # Read again under the lock: another scan may have stamped the file meanwhile.
            row = db.execute("SELECT stamp FROM meta").fetchone()
            if row is None or row[0] != self.stamp:  # kept by another scanner: its entries go
                db.execute("DELETE FROM entries")
                db.execute("DELETE FROM meta")
                db.execute("INSERT INTO meta VALUES (?)", (self.stamp,))
            db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?)", pending.items())
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            self._failed(exc)
            return
        self._ours = True

    def close(self) -> None:
        """Write what is pending and close the file."""
        self._flush()
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether `exc` says the file is damaged or no database (not busy, locked or read-only)."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)


def _key(directory: Path) -> bytes:
    # A path may hold bytes that are no UTF-8 (kept as surrogates): SQLite's text could not.
    return os.path.abspath(directory).encode("utf-8", "surrogatepass")


def _loaded(value: bytes, scanner: str, stamp: str) -> tuple[list[Finding], int] | None:
    """An entry's findings and file count, if this `scanner` kept it for files of `stamp` (a
    scan of another version may share the file for a while) and it is whole."""
    try:
        kept_scanner, kept_stamp, crc, kept = marshal.loads(value)
        if (kept_scanner, kept_stamp) != (scanner, stamp) or not isinstance(kept, bytes) or (
                zlib.crc32(kept) != crc):
            return None
        rows, files = marshal.loads(kept)
        findings = [Finding(*row) for row in rows if _whole(row)]
    except (EOFError, ValueError, TypeError):
        return None
    if len(findings) != len(rows) or not isinstance(files, int):
        return None
    return findings, files


def _whole(row: object) -> bool:
    return (isinstance(row, tuple) and len(row) == len(Finding._fields)
            and all(isinstance(row[i], str) for i in (0, 1, 3, 6, 7))
            and row[1] in _LEVELS and isinstance(row[2], (int, float))
            and all(isinstance(row[i], int) for i in (4, 5)))

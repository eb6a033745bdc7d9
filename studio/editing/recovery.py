"""Unsaved edits kept in the data folder, so that a crash or a kill loses nothing the user typed.

Each running studio writes into a session folder of its own (`recovery/<pid>-<token>/`), locked
for as long as it lives, so two windows or processes never write over each other's copies, and
one starting up offers back only the copies of sessions whose process is gone. Every unsaved text
is one JSON file, named by its kind and a hash of what it edits, written atomically (temp file and
rename) on a background thread; it is deleted when the text is saved or its changes discarded.

Beside its records a session keeps the list of the tabs the window has open (`open-tabs.paths`,
not a record), so that after a crash every tab that was open comes back, not only the edited ones.

A session of a process that died is *claimed* (locked by the newcomer) before it is read, so two
studios starting at once never both restore the same edits. A copy that cannot be read is moved
to `recovery/unreadable/` and reported, never offered again and never a crash.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import logging
import os
import secrets
import shutil
import stat
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Literal, NamedTuple

from studio import paths
from studio.fsutil import atomic_write_bytes

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, every other session is old
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

RECOVERY_FOLDER = "recovery"
UNREADABLE_FOLDER = "unreadable"
LOCK_FILE = "session.lock"
RECORD_SUFFIX = ".json"
OPEN_TABS_FILE = "open-tabs.paths"
# A window with more tabs than this is not one of ours.
MAX_OPEN_TABS = 1000
FORMAT = 1
# Far more than the editor opens (4 MiB of text, escaped): a bigger file is not one of ours.
MAX_RECORD_BYTES = 64 * 1024 * 1024
MAX_COMPARED_BYTES = 8 * 1024 * 1024
# A session folder still under its dot name this long after it was made belongs to a process
# that died while making it (a live one renames it within milliseconds).
HALF_MADE_AGE = 60.0

Kind = Literal["skill", "file", "draft"]
KINDS: tuple[Kind, ...] = ("skill", "file", "draft")


class OpenTab(NamedTuple):
    """A tab the window has open: a skill (its folder, or its path in an archive) or a file."""

    kind: Literal["skill", "file"]
    path: Path


def recovery_dir() -> Path:
    return paths.data_dir() / RECOVERY_FOLDER


def text_digest(text: str) -> str:
    """The hash a record keeps of the file's text as the editor last read it (`\\n` line ends)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def record_key(kind: Kind, identity: str) -> str:
    """The file name (without suffix) of what edits `identity` (a path, or a draft's id)."""
    digest = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{kind}-{digest}"


@dataclass(frozen=True, slots=True)
class RecoveryRecord:
    """One unsaved text.

    Attributes:
        kind: "skill" (a SKILL.md), "file" (another file of a skill) or "draft" (never saved).
        path: the file it edits (for a draft, where it seemed to live).
        text: the unsaved text, with `\\n` line ends.
        saved_at: when it was kept (seconds since the epoch).
        disk_digest: `text_digest` of the file as the editor had read it, to tell whether
            another program changed it since; None for a draft.
        name: a draft's skill name.
    """

    kind: Kind
    path: Path
    text: str
    saved_at: float
    disk_digest: str | None = None
    name: str = ""

    def to_bytes(self) -> bytes:
        record = {"format": FORMAT, "kind": self.kind, "path": str(self.path), "text": self.text,
                  "saved_at": self.saved_at, "disk_digest": self.disk_digest, "name": self.name}
        # ASCII escapes keep any string Python holds (a file name that is not UTF-8 included).
        return json.dumps(record, ensure_ascii=True).encode("ascii")

    @classmethod
    def from_bytes(cls, data: bytes) -> RecoveryRecord:
        """Raises ValueError saying what is wrong with a file that is not a whole record."""
        try:
            record: Any = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"it is not JSON ({exc})") from None
        if not isinstance(record, dict):
            raise ValueError("it is not a JSON object")
        if record.get("format") != FORMAT:
            raise ValueError(f"its format is {record.get('format')!r}, not {FORMAT}")
        kind, path, text = record.get("kind"), record.get("path"), record.get("text")
        saved_at, digest, name = record.get("saved_at"), record.get("disk_digest"), record.get(
            "name", "")
        if kind not in KINDS:
            raise ValueError(f"its kind {kind!r} is none of {', '.join(KINDS)}")
        if not isinstance(path, str) or not path or not isinstance(text, str):
            raise ValueError("its path or text is missing")
        if isinstance(saved_at, bool) or not isinstance(saved_at, int | float):
            raise ValueError("its time is missing")
        if (digest is not None and not isinstance(digest, str)) or not isinstance(name, str):
            raise ValueError("its file hash or name is not text")
        return cls(kind, Path(path), text, float(saved_at), digest, name)

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))


class DiskState(Enum):
    """How the file a record edits is now, against what the editor had read."""

    SAME = "same"
    CHANGED = "changed"
    GONE = "gone"
    NEVER_SAVED = "never saved"


def read_disk_text(path: Path) -> str | None:
    """The file's text now (`\\n` line ends), or None when it is not there or not readable."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_COMPARED_BYTES + 1)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n")


@dataclass(frozen=True, slots=True)
class RecoveredEntry:
    """A record left by a session whose process is gone, and the file it was read from."""

    record: RecoveryRecord
    file: Path

    def disk_state(self) -> DiskState:
        if self.record.kind == "draft":
            return DiskState.NEVER_SAVED
        now = read_disk_text(self.record.path)
        if now is None:
            return DiskState.GONE
        return DiskState.SAME if text_digest(now) == self.record.disk_digest else DiskState.CHANGED

    def compare(self) -> str:
        """A unified diff from the file as it is now to the recovered text."""
        record = self.record
        now = "" if record.kind == "draft" else read_disk_text(record.path) or ""
        label = str(record.path) if record.kind != "draft" else f"{record.name} (never saved)"
        lines = difflib.unified_diff(now.splitlines(keepends=True),
                                     record.text.splitlines(keepends=True),
                                     f"{label} (on disk)", f"{label} (unsaved, {record.when})")
        return "".join(lines) or "The recovered text is the same as the file on disk."


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A recovery file that could not be read: where it is now, and why."""

    file: Path
    reason: str

    @property
    def message(self) -> str:
        return f"A copy of unsaved changes could not be read ({self.reason}); it is kept at {self.file}."


def _lock(fd: int) -> bool:
    """Take the session's lock without waiting; False when a live process holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _remove_folder(folder: Path) -> None:
    """Delete a session folder that holds no record any more (temp files and its lock go)."""
    with contextlib.suppress(OSError):
        for child in folder.iterdir():
            if child.suffix != RECORD_SUFFIX:
                with contextlib.suppress(OSError):
                    child.unlink()
        folder.rmdir()


class Session:
    """The folder this process keeps its unsaved texts in; made (and locked) at the first write.

    Attributes:
        folder: where its records are, once made.
    """

    def __init__(self, root: Path) -> None:
        self._root = root
        self.folder: Path | None = None
        self._lock_fd: int | None = None
        self._open_tabs: list[OpenTab] | None = None

    def _make(self) -> Path:
        if self.folder is not None:
            return self.folder
        self._root.mkdir(parents=True, exist_ok=True)
        name = f"{os.getpid()}-{secrets.token_hex(4)}"
        # Made under a dot name and renamed once locked: another studio never sees it unlocked.
        draft = self._root / f".new-{name}"
        draft.mkdir()
        try:
            fd = os.open(draft / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            if not _lock(fd):
                os.close(fd)
                raise OSError(f"{draft / LOCK_FILE} could not be locked")
            folder = self._root / name
            os.rename(draft, folder)
        except BaseException:
            shutil.rmtree(draft, ignore_errors=True)
            raise
        self._lock_fd, self.folder = fd, folder
        if self._open_tabs is not None:
            self._write_open_tabs(folder)
        return folder

    def write(self, key: str, record: RecoveryRecord) -> None:
        folder = self._make()
        atomic_write_bytes(folder / f"{key}{RECORD_SUFFIX}", record.to_bytes())

    def set_open_tabs(self, tabs: list[OpenTab]) -> None:
        """The tabs open, kept with the records; a session that holds no record is not made
        for them alone."""
        self._open_tabs = list(tabs)
        if self.folder is not None:
            self._write_open_tabs(self.folder)

    def _write_open_tabs(self, folder: Path) -> None:
        text = json.dumps([{"kind": tab.kind, "path": str(tab.path)}
                           for tab in self._open_tabs or ()], ensure_ascii=False)
        atomic_write_bytes(folder / OPEN_TABS_FILE, text.encode("utf-8", "surrogateescape"))

    def discard(self, key: str) -> None:
        if self.folder is None:
            return
        with contextlib.suppress(FileNotFoundError):
            (self.folder / f"{key}{RECORD_SUFFIX}").unlink()

    def close(self) -> None:
        """Release the lock; the folder goes if it holds nothing, or stays to be offered back."""
        if self.folder is not None and not any(self.folder.glob(f"*{RECORD_SUFFIX}")):
            _remove_folder(self.folder)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        self.folder = None


class Claim:
    """A dead process's session, locked by this one until `release`.

    Attributes:
        folder: the session's folder.
        entries: its readable records, oldest first.
        unreadable: its files that could not be read (moved aside).
        open_tabs: the tabs its window had open, in their order (none when not known).
    """

    def __init__(self, folder: Path, lock_fd: int | None, entries: list[RecoveredEntry],
                 unreadable: list[Unreadable], open_tabs: list[OpenTab] | None = None) -> None:
        self.folder = folder
        self._lock_fd = lock_fd
        self.entries = entries
        self.unreadable = unreadable
        self.open_tabs = open_tabs or []

    def remove(self, entry: RecoveredEntry) -> None:
        with contextlib.suppress(FileNotFoundError):
            entry.file.unlink()
        self.entries = [kept for kept in self.entries if kept is not entry]

    def release(self) -> None:
        """Let go; the folder is deleted once nothing in it is left to offer."""
        if not self.entries:
            _remove_folder(self.folder)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


class RecoveryStore:
    """The recovery folder: this process's session and the sessions dead processes left.

    Attributes:
        root: the recovery folder.
        session: this process's own session.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else recovery_dir()
        self.session = Session(self.root)

    def claim_orphans(self) -> list[Claim]:
        """Lock and read every session whose process is gone (oldest first)."""
        try:
            names = sorted(os.listdir(self.root))
        except OSError:
            return []
        own = self.session.folder
        claims: list[Claim] = []
        for name in names:
            folder = self.root / name
            if name == UNREADABLE_FOLDER or folder == own:
                continue
            try:
                info = os.lstat(folder)
            except OSError:
                continue
            if not stat.S_ISDIR(info.st_mode) or (
                    name.startswith(".") and time.time() - info.st_mtime < HALF_MADE_AGE):
                continue
            fd = self._take(folder)
            if fd is False:
                continue
            if name.startswith("."):
                # A session that died while it was being made: it never held a record.
                shutil.rmtree(folder, ignore_errors=True)
                if fd is not None:
                    os.close(fd)
                continue
            entries, unreadable = self._read(folder)
            claims.append(Claim(folder, fd, entries, unreadable, _read_open_tabs(folder)))
        return claims

    def _take(self, folder: Path) -> int | Literal[False] | None:
        """The session's lock, taken; None where a lock cannot be had (no lock file can be made,
        or no advisory locks); False when a live process holds it."""
        flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(folder / LOCK_FILE, flags)
        except FileNotFoundError:
            try:
                fd = os.open(folder / LOCK_FILE, flags | os.O_CREAT | os.O_EXCL, 0o600)
            except OSError:
                return None
        except OSError:
            return None
        if _lock(fd):
            return fd
        os.close(fd)
        return False

    def _read(self, folder: Path) -> tuple[list[RecoveredEntry], list[Unreadable]]:
        entries: list[RecoveredEntry] = []
        unreadable: list[Unreadable] = []
        for file in sorted(folder.glob(f"*{RECORD_SUFFIX}")):
            try:
                entries.append(RecoveredEntry(RecoveryRecord.from_bytes(_read_record(file)), file))
            except (OSError, ValueError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                log.warning("the recovery file %s cannot be read: %s", file, reason)
                unreadable.append(Unreadable(self._set_aside(file), reason))
        entries.sort(key=lambda entry: entry.record.saved_at)
        return entries, unreadable

    def _set_aside(self, file: Path) -> Path:
        """Move an unreadable file where it is never offered again (kept for a curious user)."""
        target = self.root / UNREADABLE_FOLDER / f"{file.parent.name}-{file.name}"
        try:
            target.parent.mkdir(exist_ok=True)
            os.replace(file, target)
        except OSError:
            return file
        return target


def _read_open_tabs(folder: Path) -> list[OpenTab]:
    """The session's open tabs; none when the list is missing or is not one we wrote (an entry
    not of a known kind, or not an absolute path, is left out)."""
    try:
        with (folder / OPEN_TABS_FILE).open("rb") as file:
            data = json.loads(file.read(MAX_RECORD_BYTES).decode("utf-8", "surrogateescape"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list) or len(data) > MAX_OPEN_TABS:
        return []
    tabs = []
    for item in data:
        if not isinstance(item, dict):
            continue
        kind, path = item.get("kind"), item.get("path")
        if kind in ("skill", "file") and isinstance(path, str) and os.path.isabs(path):
            tabs.append(OpenTab(kind, Path(path)))
    return tabs


def _read_record(file: Path) -> bytes:
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("it is not a regular file")
        if info.st_size > MAX_RECORD_BYTES:
            raise ValueError(f"it is {info.st_size:,} bytes, more than a record can be")
        return handle.read()


class RecoveryWriter:
    """Writes and deletes the session's records on one background thread, in the order asked,
    so a large text never holds the caller and a delete never overtakes the write before it."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recovery")
        self._asked: list[Future[None]] = []
        self._failed = False

    def write(self, key: str, record: RecoveryRecord) -> Future[None]:
        return self._ask(self._pool.submit(self.session.write, key, record))

    def discard(self, key: str) -> Future[None]:
        return self._ask(self._pool.submit(self.session.discard, key))

    def open_tabs(self, tabs: list[OpenTab]) -> Future[None]:
        return self._ask(self._pool.submit(self.session.set_open_tabs, tabs))

    def _ask(self, future: Future[None]) -> Future[None]:
        done = [asked for asked in self._asked if asked.done()]
        self._failed = self._failed or any(asked.exception() is not None for asked in done)
        self._asked = [asked for asked in self._asked if not asked.done()]
        self._asked.append(future)
        return future

    def wait(self) -> bool:
        """Wait until everything asked so far is done; False if any of it failed since the last
        wait (each future tells its own error to whoever watches it)."""
        asked, self._asked = self._asked, []
        failed = any([future.exception() is not None for future in asked]) or self._failed
        self._failed = False
        return not failed

    def close(self) -> None:
        """Finish what was asked, then release the session (its records stay to be offered)."""
        self._pool.shutdown(wait=True)
        self.session.close()

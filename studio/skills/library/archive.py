"""Unpacking a downloaded archive of skills (zip or tar.gz) as a stream, every limit checked
before a byte is decompressed or while it streams.

Nothing in an archive is trusted. Every entry must be a plain file or a folder with a relative
path that stays inside the target (no absolute paths, no `..`, no links, no devices or FIFOs),
no deeper or longer than the caps; the entries together stay under caps on count and unpacked
size, each one under a cap of its own. A repository's `.git` (hooks, `core.fsmonitor`) is never
unpacked: it is left out and said so.

A tar.gz is read header by header with our own reader of the 512-byte blocks, so a PAX or GNU
long-name record is refused by its stated size before it is read (Python's `tarfile` reads such
records whole into memory: a 1 MB PAX bomb took gigabytes), and an archive of millions of entries
stops at the cap on their count. A zip's central directory is sized from its end record before
`zipfile` reads it; each entry's stated ratio is checked, and the bytes actually written are
counted again, so an entry that lies about its size is stopped at the cap.
"""

from __future__ import annotations

import gzip
import os
import stat
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Protocol

from studio.errors import StudioError

MAX_FILES = 5000
MAX_UNPACKED = 200 << 20
MAX_ENTRY = 50 << 20
MAX_DEPTH = 32
MAX_PATH = 1024
# A PAX record holding a path and a size is some hundreds of bytes; 64 KiB is already generous.
MAX_HEADER = 64 << 10
# A zip entry that claims to grow more than this many times is a bomb (text compresses ~10:1).
MAX_RATIO = 200
CHUNK = 1 << 16
BLOCK = 512
GIT = ".git"


class _Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


class ArchiveError(StudioError):
    """The archive is refused; the message says which entry and why."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps on an archive: entries, unpacked bytes (all and each), path depth and length,
    the size of a tar's extended header records and a zip entry's compression ratio."""

    max_files: int = MAX_FILES
    max_unpacked: int = MAX_UNPACKED
    max_entry: int = MAX_ENTRY
    max_depth: int = MAX_DEPTH
    max_path: int = MAX_PATH
    max_header: int = MAX_HEADER
    max_ratio: int = MAX_RATIO


@dataclass(slots=True)
class Unpacked:
    """What unpacking left out: the `.git` folders (and files) the archive carried."""

    git: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Entry:
    path: PurePosixPath
    is_dir: bool
    size: int
    mode: int


def kind_of(path: Path) -> str:
    """"zip" or "tar.gz", from the file's first bytes (a URL's name can say anything)."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "tar.gz"
    raise ArchiveError("the download is neither a zip nor a tar.gz archive")


def checked_path(name: str, limits: Limits | None = None) -> PurePosixPath | None:
    """The entry's path, made relative; None for the archive's own root entry. Raises
    ArchiveError for a path that could land outside the target, or is too deep or too long."""
    if "\\" in name or "\x00" in name:
        raise ArchiveError(f"the entry {name[:200]!r} has a backslash or NUL in its path")
    if limits is not None and len(name) > limits.max_path:
        raise ArchiveError(f"the entry {name[:80]!r}… has a path longer than "
                           f"{limits.max_path} characters")
    pure = PurePosixPath(name)
    if pure.is_absolute() or (pure.parts and pure.parts[0].endswith(":")):
        raise ArchiveError(f"the entry {name!r} has an absolute path")
    if ".." in pure.parts:
        raise ArchiveError(f"the entry {name!r} reaches outside the archive's folder with `..`")
    parts = [part for part in pure.parts if part not in ("", ".")]
    if limits is not None and len(parts) > limits.max_depth:
        raise ArchiveError(f"the entry {name[:200]!r} is more than {limits.max_depth} folders deep")
    return PurePosixPath(*parts) if parts else None


class _Checker:
    """The running checks on entries as they come: count, duplicates, sizes, the budget of
    bytes written, and the `.git` entries left out."""

    def __init__(self, limits: Limits, report: Unpacked) -> None:
        self.limits = limits
        self.report = report
        self.count = 0
        self.declared = 0
        self.left = limits.max_unpacked
        self.seen: dict[str, bool] = {}

    def admit(self, entry: _Entry) -> bool:
        """Check one entry; False when it is left out (inside a `.git`)."""
        self.count += 1
        if self.count > self.limits.max_files:
            raise ArchiveError(f"the archive has more than {self.limits.max_files:,} entries")
        key = str(entry.path)
        if GIT in entry.path.parts:
            top = PurePosixPath(*entry.path.parts[:entry.path.parts.index(GIT) + 1])
            if str(top) not in self.report.git:
                self.report.git.append(str(top))
            return False
        if not entry.is_dir:
            if entry.size > self.limits.max_entry:
                raise ArchiveError(f"the entry {key!r} is {entry.size:,} bytes, more than the "
                                   f"{self.limits.max_entry:,} allowed for one file")
            self.declared += entry.size
            if self.declared > self.limits.max_unpacked:
                raise ArchiveError(f"the archive would unpack to more than the "
                                   f"{self.limits.max_unpacked:,} bytes allowed")
        if key in self.seen and not (self.seen[key] and entry.is_dir):
            raise ArchiveError(f"the archive holds {key!r} more than once")
        self.seen[key] = entry.is_dir
        for parent in entry.path.parents:
            if self.seen.get(str(parent)) is False:
                raise ArchiveError(f"{key!r} is inside {str(parent)!r}, which is a file")
        return True

    def spend(self, count: int, name: str) -> None:
        self.left -= count
        if self.left < 0:
            raise ArchiveError(
                f"unpacking {name!r} passed the cap on the unpacked size (a zip bomb?)")

    def copy(self, source: _Readable, target: Path | None, name: str, size: int | None) -> None:
        """Copy (or, with no target, skip) an entry's bytes, counting each against the budget
        and, when the size is known, against it too."""
        cap = self.limits.max_entry if size is None else size
        out = open(target, "xb") if target is not None else None  # noqa: SIM115
        try:
            written = 0
            while True:
                want = CHUNK if size is None else min(CHUNK, size - written)
                if want <= 0:
                    break
                chunk = source.read(want)
                if not chunk:
                    if size is not None:
                        raise ArchiveError(f"the archive ends inside {name!r}")
                    break
                written += len(chunk)
                if written > cap:
                    raise ArchiveError(f"{name!r} unpacks to more than it says (a zip bomb?)")
                self.spend(len(chunk), name)
                if out is not None:
                    out.write(chunk)
        finally:
            if out is not None:
                out.close()


def unpack(archive_path: Path, target: Path, limits: Limits) -> Unpacked:
    """Unpack into the empty folder `target`, checking every entry as it comes. Raises
    ArchiveError (the target may then hold part of the archive: the caller unpacks into a
    scratch folder). Returns what was left out."""
    kind = kind_of(archive_path)
    report = Unpacked()
    checker = _Checker(limits, report)
    try:
        if kind == "zip":
            _unpack_zip(archive_path, target, checker)
        else:
            _unpack_tar(archive_path, target, checker)
    except (zipfile.BadZipFile, gzip.BadGzipFile, EOFError, OSError, RuntimeError,
            NotImplementedError, ValueError, struct.error) as exc:
        if isinstance(exc, OSError) and exc.filename:
            raise ArchiveError(f"cannot unpack the archive: {exc.strerror} ({exc.filename})") from None
        raise ArchiveError(f"the archive is damaged: {exc}") from None
    return report


# -- zip ------------------------------------------------------------------------------------------

_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
# A central directory record: 46 bytes and the name, extra field and comment (each < 64 KiB).
_CENTRAL_RECORD = 46


def _zip_directory_size(path: Path, limits: Limits) -> None:
    """Refuse, from the end record alone, a zip whose central directory lists more entries than
    allowed or is larger than such a list can be: `zipfile` reads it whole before we see one."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        tail_size = min(size, (1 << 16) + 22 + 20)
        handle.seek(size - tail_size)
        tail = handle.read(tail_size)
        at = tail.rfind(_EOCD)
        if at < 0 or len(tail) - at < 22:
            raise ArchiveError("the archive is damaged: no zip end record")
        entries, directory = struct.unpack("<HI", tail[at + 10:at + 16])
        locator = tail.rfind(_EOCD64_LOCATOR, 0, at)
        if locator >= 0 and at - locator == 20:
            (offset,) = struct.unpack("<Q", tail[locator + 8:locator + 16])
            handle.seek(offset)
            record = handle.read(56)
            if record[:4] == b"PK\x06\x06" and len(record) == 56:
                entries, directory = struct.unpack("<QQ", record[32:48])
    if entries > limits.max_files:
        raise ArchiveError(f"the archive has more than {limits.max_files:,} entries "
                           f"(it lists {entries:,})")
    most = limits.max_files * (_CENTRAL_RECORD + limits.max_path + 2 * (1 << 10))
    if directory > most:
        raise ArchiveError(f"the archive's list of entries is {directory:,} bytes, more than "
                           f"{limits.max_files:,} entries take")


def _unpack_zip(path: Path, target: Path, checker: _Checker) -> None:
    limits = checker.limits
    _zip_directory_size(path, limits)
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        if len(infos) > limits.max_files:
            raise ArchiveError(f"the archive has more than {limits.max_files:,} entries")
        listed: list[tuple[_Entry, zipfile.ZipInfo]] = []
        for info in infos:
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise ArchiveError(f"the entry {info.filename!r} is a link; links are not installed")
            # Archivers outside Unix leave the type bits at zero: a plain entry.
            if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise ArchiveError(f"the entry {info.filename!r} is not a plain file or folder")
            entry_path = checked_path(info.filename, limits)
            if entry_path is None:
                continue
            if (not info.is_dir() and info.file_size > (1 << 20)
                    and info.file_size > limits.max_ratio * max(info.compress_size, 1)):
                raise ArchiveError(
                    f"the entry {info.filename!r} claims to grow {info.file_size:,} bytes from "
                    f"{info.compress_size:,} (more than {limits.max_ratio}:1: a zip bomb?)")
            entry = _Entry(entry_path, info.is_dir(), info.file_size, mode & 0o777)
            if checker.admit(entry):
                listed.append((entry, info))
        # Every entry is checked (count, sizes, names) before any is decompressed.
        for entry, info in listed:
            destination = _prepare(target, entry)
            if destination is not None:
                with archive.open(info) as source:
                    checker.copy(source, destination, info.filename, None)
                _set_mode(destination, entry.mode)
                if destination.stat().st_size != info.file_size:
                    raise ArchiveError(f"the entry {info.filename!r} is not the size it says")


# -- tar.gz ---------------------------------------------------------------------------------------

_FILE_TYPES = (b"0", b"\x00", b"7")
_DIR_TYPE = b"5"
_LINK_TYPES = (b"1", b"2")
_SPECIAL_TYPES = (b"3", b"4", b"6")
_PAX_TYPE = b"x"
_GLOBAL_TYPE = b"g"
_GNU_NAME = b"L"
_GNU_LINK = b"K"


def _number(field_bytes: bytes, what: str) -> int:
    if field_bytes[:1] in (b"\x80", b"\xff"):
        if field_bytes[:1] == b"\xff":
            raise ArchiveError(f"the archive has a negative {what}")
        return int.from_bytes(field_bytes[1:], "big")
    text = field_bytes.split(b"\x00", 1)[0].strip()
    if not text:
        return 0
    try:
        return int(text, 8)
    except ValueError:
        raise ArchiveError(f"the archive is damaged: a header's {what} is not a number") from None


def _text(raw: bytes) -> str:
    return raw.split(b"\x00", 1)[0].decode("utf-8", "surrogateescape")


def _read_exactly(source: _Readable, count: int) -> bytes:
    data = source.read(count)
    if len(data) != count:
        raise ArchiveError("the archive ends in the middle of an entry")
    return data


def _pax_records(data: bytes) -> dict[str, str]:
    """The key=value records of a PAX header (`<length> <key>=<value>\\n` each)."""
    records: dict[str, str] = {}
    at = 0
    while at < len(data) and data[at:at + 1] != b"\x00":
        space = data.find(b" ", at, at + 24)
        if space < 0:
            raise ArchiveError("the archive has a damaged PAX header")
        length = int(data[at:space])
        record = data[space + 1:at + length]
        if length <= 0 or not record.endswith(b"\n") or b"=" not in record:
            raise ArchiveError("the archive has a damaged PAX header")
        key, _, value = record[:-1].partition(b"=")
        records[key.decode("utf-8", "surrogateescape")] = value.decode("utf-8", "surrogateescape")
        at += length
    return records


def _padding(size: int) -> int:
    return -size % BLOCK


def _unpack_tar(path: Path, target: Path, checker: _Checker) -> None:
    limits = checker.limits
    headers = 0
    with gzip.open(path, "rb") as source:
        pending: dict[str, str] = {}
        while True:
            block = source.read(BLOCK)
            if len(block) < BLOCK or block == bytes(BLOCK):
                return  # the end (two zero blocks, or a tar cut at a block boundary)
            headers += 1
            if headers > 4 * limits.max_files:
                raise ArchiveError(f"the archive has more than {limits.max_files:,} entries")
            checksum = _number(block[148:156], "checksum")
            if checksum not in (sum(block[:148]) + 256 + sum(block[156:]),):
                raise ArchiveError("the archive is damaged: a header's checksum is wrong")
            kind = block[156:157]
            size = _number(block[124:136], "size")
            if kind in (_PAX_TYPE, _GLOBAL_TYPE, _GNU_NAME, _GNU_LINK):
                # Refused by its stated size, before a byte of it is read.
                if size > limits.max_header:
                    raise ArchiveError(f"the archive has an extended header of {size:,} bytes, "
                                       f"more than the {limits.max_header:,} allowed")
                data = _read_exactly(source, size)
                _read_exactly(source, _padding(size))
                if kind == _PAX_TYPE:
                    pending.update(_pax_records(data))
                elif kind == _GNU_NAME:
                    pending["path"] = _text(data)
                elif kind == _GNU_LINK:
                    pending["linkpath"] = _text(data)
                continue
            name = _text(block[0:100])
            if block[257:262] == b"ustar" and block[345:346] != b"\x00":
                name = _text(block[345:500]) + "/" + name
            name = pending.pop("path", name)
            if "size" in pending:
                try:
                    size = int(pending.pop("size"))
                except ValueError:
                    raise ArchiveError(f"the entry {name!r} has a damaged size") from None
            pending.clear()
            if size < 0:
                raise ArchiveError(f"the entry {name!r} has a negative size")
            if kind in _LINK_TYPES:
                raise ArchiveError(f"the entry {name!r} is a link; links are not installed")
            is_dir = kind == _DIR_TYPE or (kind in (b"0", b"\x00") and name.endswith("/"))
            if not is_dir and kind not in _FILE_TYPES:
                raise ArchiveError(f"the entry {name!r} is a device, FIFO or other special file")
            mode = _number(block[100:108], "mode") & 0o777
            entry_path = checked_path(name, limits)
            wanted = entry_path is not None and checker.admit(
                _Entry(entry_path, is_dir, 0 if is_dir else size, mode))
            destination = None
            if wanted and entry_path is not None:
                destination = _prepare(target, _Entry(entry_path, is_dir, size, mode))
            if not is_dir:
                checker.copy(source, destination, name, size)
                if destination is not None:
                    _set_mode(destination, mode)
            elif size:
                checker.copy(source, None, name, size)
            _read_exactly(source, _padding(size))


def _prepare(target: Path, entry: _Entry) -> Path | None:
    """Create the folders for an entry; return where a file entry goes (None for a folder)."""
    destination = target.joinpath(*entry.path.parts)
    if entry.is_dir:
        destination.mkdir(parents=True, exist_ok=True)
        return None
    destination.parent.mkdir(parents=True, exist_ok=True)
    return destination


def _set_mode(path: Path, mode: int) -> None:
    # Only the executable bits travel: an archive cannot make a file world-writable or setuid.
    executable = mode & 0o111
    os.chmod(path, 0o644 | (0o111 if executable else 0))

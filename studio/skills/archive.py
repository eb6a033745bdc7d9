"""Unpacking a downloaded archive of skills (zip or tar.gz) with every entry checked first.

Nothing in an archive is trusted: before a byte is written, every entry must be a plain file or a
folder with a relative path that stays inside the target (no absolute paths, no `..`, no links,
no devices or FIFOs), and the entries together must stay under caps on count and unpacked size.
While unpacking, the bytes actually written are counted again, so an entry that lies about its
size (a zip bomb) is stopped at the cap.
"""

from __future__ import annotations

import os
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

MAX_FILES = 5000
MAX_UNPACKED = 200 << 20
CHUNK = 1 << 16


class ArchiveError(Exception):
    """The archive is refused; the message says which entry and why."""


@dataclass(frozen=True, slots=True)
class Limits:
    max_files: int = MAX_FILES
    max_unpacked: int = MAX_UNPACKED


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


def checked_path(name: str) -> PurePosixPath | None:
    """The entry's path, made relative; None for the archive's own root entry. Raises
    ArchiveError for a path that could land outside the target."""
    if "\\" in name or "\x00" in name:
        raise ArchiveError(f"the entry {name!r} has a backslash or NUL in its path")
    pure = PurePosixPath(name)
    if pure.is_absolute() or (pure.parts and pure.parts[0].endswith(":")):
        raise ArchiveError(f"the entry {name!r} has an absolute path")
    if ".." in pure.parts:
        raise ArchiveError(f"the entry {name!r} reaches outside the archive's folder with `..`")
    parts = [part for part in pure.parts if part not in ("", ".")]
    return PurePosixPath(*parts) if parts else None


def _zip_entries(archive: zipfile.ZipFile) -> Iterator[tuple[_Entry, zipfile.ZipInfo]]:
    for info in archive.infolist():
        path = checked_path(info.filename)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise ArchiveError(f"the entry {info.filename!r} is a link; links are not installed")
        # Archivers outside Unix leave the type bits at zero: a plain entry.
        if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise ArchiveError(f"the entry {info.filename!r} is not a plain file or folder")
        if path is None:
            continue
        yield _Entry(path, info.is_dir(), info.file_size, mode & 0o777), info


def _tar_entries(archive: tarfile.TarFile) -> Iterator[tuple[_Entry, tarfile.TarInfo]]:
    for member in archive:
        if member.issym() or member.islnk():
            raise ArchiveError(f"the entry {member.name!r} is a link; links are not installed")
        if not (member.isfile() or member.isdir()):
            if member.type in (tarfile.XHDTYPE, tarfile.XGLTYPE):
                continue
            raise ArchiveError(
                f"the entry {member.name!r} is a device, FIFO or other special file"
            )
        path = checked_path(member.name)
        if path is None:
            continue
        yield _Entry(path, member.isdir(), member.size, member.mode & 0o777), member


def _check_totals(entries: list[_Entry], limits: Limits) -> None:
    files = [entry for entry in entries if not entry.is_dir]
    if len(entries) > limits.max_files:
        raise ArchiveError(f"the archive has more than {limits.max_files} entries")
    total = sum(entry.size for entry in files)
    if total > limits.max_unpacked:
        raise ArchiveError(
            f"the archive would unpack to {total} bytes, more than the {limits.max_unpacked} allowed"
        )
    seen: dict[str, bool] = {}
    for entry in entries:
        key = str(entry.path)
        if key in seen and not (seen[key] and entry.is_dir):
            raise ArchiveError(f"the archive holds {key!r} more than once")
        seen[key] = entry.is_dir
        for parent in entry.path.parents:
            if seen.get(str(parent)) is False:
                raise ArchiveError(f"{key!r} is inside {str(parent)!r}, which is a file")


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def copy(self, source: IO[bytes], target: Path, name: str) -> None:
        with open(target, "xb") as out:
            while chunk := source.read(CHUNK):
                self.left -= len(chunk)
                if self.left < 0:
                    raise ArchiveError(
                        f"unpacking {name!r} passed the cap on the unpacked size (a zip bomb?)"
                    )
                out.write(chunk)


def unpack(archive_path: Path, target: Path, limits: Limits) -> None:
    """Unpack into the empty folder `target`, after checking every entry. Raises ArchiveError
    (the target may then hold part of the archive: the caller unpacks into a scratch folder)."""
    kind = kind_of(archive_path)
    budget = _Budget(limits.max_unpacked)
    try:
        if kind == "zip":
            with zipfile.ZipFile(archive_path) as archive:
                zip_listed = list(_zip_entries(archive))
                _check_totals([entry for entry, _ in zip_listed], limits)
                for entry, info in zip_listed:
                    destination = _prepare(target, entry)
                    if destination is not None:
                        with archive.open(info) as source:
                            budget.copy(source, destination, info.filename)
                        _set_mode(destination, entry.mode)
        else:
            with tarfile.open(archive_path, "r:gz") as archive:
                tar_listed = list(_tar_entries(archive))
                _check_totals([entry for entry, _ in tar_listed], limits)
                for entry, member in tar_listed:
                    destination = _prepare(target, entry)
                    if destination is not None:
                        extracted = archive.extractfile(member)
                        if extracted is None:
                            raise ArchiveError(f"the entry {member.name!r} cannot be read")
                        with extracted:
                            budget.copy(extracted, destination, member.name)
                        _set_mode(destination, entry.mode)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, RuntimeError,
            NotImplementedError) as exc:
        if isinstance(exc, OSError) and exc.filename:
            raise ArchiveError(f"cannot unpack the archive: {exc.strerror} ({exc.filename})") from None
        raise ArchiveError(f"the archive is damaged: {exc}") from None


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

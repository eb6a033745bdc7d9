"""Zipped skills unpacked so that their scripts can run.

The library and the chat read a skill inside a zip archive in place, but a script has to be a file
to run. `UnpackedSkills.folder` unpacks the archive once into `<folder>/<sha256 of the archive>/`,
every entry checked as an install checks it (`archive.unpack`: no absolute paths, no `..`, no
links or special files, caps on count and size), and makes the copy read-only. The next run finds
it there; an archive that changed has another hash, so it is unpacked again into another folder.
The archive itself is only ever read, and what is unpacked is a copy taken while hashing, so an
archive replaced meanwhile cannot slip other content under the hash.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from studio.paths import cache_dir
from studio.skills.archive import CHUNK, ArchiveError, Limits, checked_path, kind_of, unpack
from studio.skills.model import SKILL_FILE

UNPACK_FOLDER = "unzipped-skills"
_SCRATCH = ".unpacking-"


def default_folder() -> Path:
    return cache_dir() / UNPACK_FOLDER


class UnpackedSkills:
    """The read-only copies of zipped skills, one folder per archive content.

    Attributes:
        root: where the copies are kept (default: the app's cache folder's unzipped-skills/).
        limits: the caps on an archive's entries and unpacked size.
    """

    def __init__(self, root: Path | None = None, limits: Limits | None = None) -> None:
        self.root = root if root is not None else default_folder()
        self.limits = limits if limits is not None else Limits()

    def folder(self, archive: Path, inner: PurePosixPath) -> Path:
        """The unpacked folder of the skill at `inner` (its folder inside the archive). Raises
        ArchiveError saying what is wrong with the archive, or OSError when the cache cannot be
        written."""
        relative = checked_path(str(inner))
        target = self.root / _digest(archive, self.limits.max_unpacked)
        if not target.is_dir():
            target = self._unpack(archive)
        skill = target.joinpath(*relative.parts) if relative is not None else target
        if not (skill / SKILL_FILE).is_file():
            raise ArchiveError(f"{archive} holds no skill at {inner}")
        return skill

    def _unpack(self, archive: Path) -> Path:
        self.root.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=_SCRATCH, dir=self.root))
        try:
            copy = scratch / "archive.zip"
            digest = _copy(archive, copy, self.limits.max_unpacked)
            if kind_of(copy) != "zip":
                raise ArchiveError(f"{archive} is not a zip archive")
            tree = scratch / "tree"
            tree.mkdir()
            unpack(copy, tree, self.limits)
            _make_read_only(tree)
            target = self.root / digest
            try:
                # Another run may have unpacked the same archive meanwhile: its copy is as good.
                tree.rename(target)
            except OSError:
                if not target.is_dir():
                    raise
            # Only now: moving a folder to another parent needs it writable.
            target.chmod(0o555)
            return target
        finally:
            _remove(scratch)


def _digest(archive: Path, cap: int) -> str:
    hasher = hashlib.sha256()
    _read(archive, cap, hasher.update)
    return hasher.hexdigest()


def _copy(archive: Path, copy: Path, cap: int) -> str:
    hasher = hashlib.sha256()
    with open(copy, "xb") as out:
        def write(chunk: bytes) -> None:
            hasher.update(chunk)
            out.write(chunk)
        _read(archive, cap, write)
    return hasher.hexdigest()


def _read(archive: Path, cap: int, sink: Callable[[bytes], object]) -> None:
    left = cap
    with open(archive, "rb") as handle:
        while chunk := handle.read(CHUNK):
            left -= len(chunk)
            if left < 0:
                raise ArchiveError(f"{archive} is over {cap:,} bytes; it is not unpacked")
            sink(chunk)


def _make_read_only(tree: Path) -> None:
    """Files keep only their executable bits and lose every write bit; folders below the top
    become read-only too (the top stays writable until it is moved into place)."""
    for folder, folders, files in os.walk(tree):
        for name in files:
            path = Path(folder, name)
            path.chmod(0o555 if path.stat().st_mode & 0o111 else 0o444)
        for name in folders:
            Path(folder, name).chmod(0o555)


def _remove(path: Path) -> None:
    """Remove a scratch folder, read-only parts included."""
    with contextlib.suppress(OSError):
        for folder, _folders, _files in os.walk(path):
            os.chmod(folder, stat.S_IRWXU)
    shutil.rmtree(path, ignore_errors=True)

"""Zipped skills unpacked so that their scripts can run.

The library and the chat read a skill inside a zip archive in place, but a script has to be a file
to run. `UnpackedSkills.folder` unpacks the archive once into `<folder>/<sha256 of the archive>/`,
every entry checked as an install checks it (`archive.unpack`: no absolute paths, no `..`, no
links or special files, caps on count and size), and makes the copy read-only. The next run finds
it there; an archive that changed has another hash, so it is unpacked again into another folder.
The archive itself is only ever read, and what is unpacked is a copy taken while hashing, so an
archive replaced meanwhile cannot slip other content under the hash.

Each use stamps the copy's folder (its modification time), and whenever a new archive is unpacked
the copies not used for `MAX_IDLE` (30 days) go, then the least recently used ones while the
copies take more than `MAX_BYTES`, but never one used in the last `MIN_IDLE` (a day: far longer
than a run's timeout) nor one a live process works in. A use and a removal each hold a lock on the
cache folder, so a copy is never taken away between being found and being stamped.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

from studio.paths import cache_dir
from studio.skills.library.archive import CHUNK, ArchiveError, Limits, checked_path, kind_of, unpack
from studio.skills.model import SKILL_FILE

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; the idle times still hold
    fcntl = None  # type: ignore[assignment]

UNPACK_FOLDER = "unzipped-skills"
_SCRATCH = ".unpacking-"
_REMOVING = ".removing-"
_COPY_NAME = re.compile(r"[0-9a-f]{64}")
DAY = 24 * 60 * 60.0
MAX_IDLE = 30 * DAY
MIN_IDLE = DAY
MAX_BYTES = 2 * 1024 * 1024 * 1024


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
        """The unpacked folder of the skill at `inner` (its folder inside the archive), stamped
        as used now. Raises ArchiveError saying what is wrong with the archive, or OSError when
        the cache cannot be written."""
        relative = checked_path(str(inner))
        target = self.root / _digest(archive, self.limits.max_unpacked)
        with self._locked(exclusive=False):
            found = target.is_dir()
            if found:
                # The owner may always set the time; a cache shared with another user is not
                # ours to stamp, and its copy is still good to run.
                with contextlib.suppress(OSError):
                    os.utime(target)
        if not found:
            target = self._unpack(archive)
            self.remove_unused()
        skill = target.joinpath(*relative.parts) if relative is not None else target
        if not (skill / SKILL_FILE).is_file():
            raise ArchiveError(f"{archive} holds no skill at {inner}")
        return skill

    def remove_unused(self, *, now: float | None = None, max_idle: float = MAX_IDLE,
                      max_bytes: int = MAX_BYTES, min_idle: float = MIN_IDLE) -> list[Path]:
        """Remove the copies not used for `max_idle` seconds, then the least recently used while
        all of them take more than `max_bytes`, keeping any used in the last `min_idle` seconds
        or worked in by a live process; the removed copies. Only folders named as copies, right
        in the cache folder and not links, are ever removed; what cannot be removed stays."""
        now = time.time() if now is None else now
        removed: list[Path] = []
        with self._locked(exclusive=True):
            for leftover, made in _leftovers(self.root):
                # Half removed (always, under this lock) or half unpacked by a killed process.
                if leftover.name.startswith(_REMOVING) or now - made >= min_idle:
                    _remove(leftover)
            copies = sorted(_copies(self.root), key=lambda copy: copy[1])
            sizes = {path: _size(path) for path, _used in copies}
            total = sum(sizes.values())
            for path, used in copies:
                idle = now - used
                if idle < min_idle or (idle < max_idle and total <= max_bytes):
                    continue
                if _worked_in(path) or not _take_away(path):
                    continue
                removed.append(path)
                total -= sizes[path]
        return removed

    @contextlib.contextmanager
    def _locked(self, *, exclusive: bool) -> Iterator[None]:
        """Hold the cache folder's lock: shared while a copy is found and stamped, exclusive
        while copies are removed (the folder is made if need be)."""
        self.root.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            yield
            return
        fd = os.open(self.root, os.O_RDONLY)
        try:
            with contextlib.suppress(OSError):  # a file system without locks: the times hold
                fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)

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


def _copies(root: Path) -> Iterator[tuple[Path, float]]:
    """The copies in `root` and when each was last used: real folders of this user named as
    `folder` names them (never a link, a scratch folder or anything else put there)."""
    return _folders(root, lambda name: _COPY_NAME.fullmatch(name) is not None)


def _leftovers(root: Path) -> Iterator[tuple[Path, float]]:
    """The scratch folders in `root` (of an unpacking or a removal) and when each was made."""
    return _folders(root, lambda name: name.startswith((_SCRATCH, _REMOVING)))


def _folders(root: Path, wanted: Callable[[str], bool]) -> Iterator[tuple[Path, float]]:
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        if not wanted(name):
            continue
        path = root / name
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid():
            yield path, info.st_mtime


def _size(folder: Path) -> int:
    total = 0
    for parent, _folders, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(parent, name)).st_size
    return total


def _worked_in(folder: Path) -> bool:
    """Whether a live process we can see has its working folder in `folder` (a script still
    running from the copy). Linux tells through /proc; elsewhere the idle times must do."""
    inside = os.path.realpath(folder)
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return False
    for pid in pids:
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue  # gone, or another user's
        if cwd == inside or cwd.startswith(inside + os.sep):
            return True
    return False


def _take_away(path: Path) -> bool:
    """Move a copy out of its name at once (a run asking for it unpacks it afresh), then delete
    it; False when it could not be moved."""
    aside = path.with_name(_REMOVING + path.name)
    try:
        os.rename(path, aside)
    except OSError:
        return False
    _remove(aside)
    return True


def _remove(path: Path) -> None:
    """Remove a scratch folder, read-only parts included."""
    with contextlib.suppress(OSError):
        for folder, _folders, _files in os.walk(path):
            os.chmod(folder, stat.S_IRWXU)
    shutil.rmtree(path, ignore_errors=True)

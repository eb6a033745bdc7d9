"""Writing files so that a crash never leaves half of one behind."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from studio.errors import StudioError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, so no temp file is cleaned
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".tmp"


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def current_umask() -> int:
    """The process's umask. Read from /proc where it is shown: setting it to learn it would,
    for that moment, give files other threads create the wrong mode."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o077)
    os.umask(umask)
    return umask


def new_file_mode(executable: bool = False) -> int:
    """The mode a new file of the user's gets (mkstemp's temp files are 0600, which would hide
    a user's packs and exports from everyone they share them with)."""
    return (0o777 if executable else 0o666) & ~current_umask()


def new_folder_mode() -> int:
    """The mode a new folder of the user's gets (mkdtemp's are 0700)."""
    return 0o777 & ~current_umask()


class RefusedWrite(OSError, StudioError):
    """A rewrite refused because renaming a new file over the old one would change what the
    old one is: its links, its owner, or that it was read-only. The message says which."""


def _refusal(path: Path, info: os.stat_result) -> str | None:
    """Why `path` (whose stat is `info`) must not be replaced by a new file; None when it may."""
    if info.st_nlink > 1:
        return (f"{path} has {info.st_nlink} hard links; writing a new file would split it from "
                "the others, so it was left as it is. Fix the file the links share by hand, or "
                "replace the links with one copy")
    if info.st_mode & 0o222 == 0 or (os.geteuid() != 0 and not os.access(path, os.W_OK)):
        return f"{path} is read-only; it was left as it is. Make it writable to change it"
    return None


def atomic_write_bytes(
    path: Path, data: bytes, *, durable: bool = True,
    before_replace: Callable[[], None] | None = None, strict: bool = False,
) -> None:
    """Write `data` to a temp file beside `path`, flush it to disk, then rename it over `path`.

    The file's permission bits, owner and group survive the rewrite, so an executable script
    stays executable and a file root rewrites for another user stays that user's (where the
    owner cannot be kept, the write goes on as this user's file, unless `strict`).
    With `strict` (the fixes of a user's files), a file the rename would change in another way
    is refused with `RefusedWrite`: one with hard links (they would keep the old text), one
    that is read-only, or one whose owner or group cannot be kept.
    A cache passes `durable=False` to skip waiting for the disk: after a power cut its file may
    be old or empty, which a cache that checks what it reads survives, and no reader ever sees
    half of one. `before_replace` runs last before the rename; whatever it raises leaves `path`
    as it was and the temp file removed.

    The temp file is locked while it lives, so `remove_stale_temps` can tell one a killed
    process left behind from one being written.
    """
    path = Path(path)
    try:
        info: os.stat_result | None = path.stat()
    except FileNotFoundError:
        info = None
    if strict and info is not None and (reason := _refusal(path, info)) is not None:
        raise RefusedWrite(reason)
    mode = info.st_mode & 0o7777 if info is not None else None
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if fcntl is not None:
                # Best effort: where a file system has no locks, a cleaner in another process
                # still sees the file open in this one.
                with contextlib.suppress(OSError):
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
            if info is not None:
                _keep_owner(tmp, path, info, strict)
            if mode is not None:
                # After the owner: a change of owner clears the set-id bits.
                os.chmod(tmp, mode)
            else:
                os.chmod(tmp, new_file_mode())
            if before_replace is not None:
                before_replace()
            # Renamed while still locked: until then, no cleaner may take it for a stale one.
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _keep_owner(tmp: str, path: Path, info: os.stat_result, strict: bool) -> None:
    """Give the temp file the owner and group of the file it replaces."""
    made = os.stat(tmp)
    if (made.st_uid, made.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.chown(tmp, info.st_uid, info.st_gid)
    except OSError as exc:
        if strict:
            raise RefusedWrite(
                f"{path} belongs to user {info.st_uid}, group {info.st_gid}, which this user "
                f"cannot give a new file ({exc.strerror or exc}); it was left as it is"
            ) from exc


def _is_our_temp(name: str, target: str) -> bool:
    """Whether `name` is exactly what `atomic_write_bytes` names a temp file for `target`."""
    return re.fullmatch(
        re.escape(f".{target}.") + r"[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX), name
    ) is not None


def _open_elsewhere(path: Path) -> bool:
    """Whether another live process we can see holds `path` open (a writer that does not lock).
    Linux tells through /proc; where there is no /proc, only the writer's lock tells."""
    wanted = os.path.realpath(path)
    own = str(os.getpid())
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit() and name != own]
    except OSError:
        return False
    for pid in pids:
        folder = f"/proc/{pid}/fd"
        try:
            descriptors = os.listdir(folder)
        except OSError:
            continue  # gone, or another user's
        for descriptor in descriptors:
            try:
                if os.readlink(f"{folder}/{descriptor}") == wanted:
                    return True
            except OSError:
                continue
    return False


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove the temp files a killed `atomic_write_bytes` left beside `path`; return them.

    Only regular files of this user, named exactly as the writer names them, not locked by a
    live writer and open in no other live process, are removed: such a file is a copy that was
    never renamed, so `path` itself is whole. Without advisory locks (Windows) nothing is
    removed."""
    path = Path(path)
    if fcntl is None:
        return []
    removed: list[Path] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    for name in names:
        if not _is_our_temp(name, path.name):
            continue
        candidate = path.parent / name
        try:
            info = os.lstat(candidate)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                continue
            fd = os.open(candidate, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            opened = os.fstat(fd)
            if (opened.st_dev, opened.st_ino) == (info.st_dev, info.st_ino) and not _open_elsewhere(
                candidate
            ):
                os.unlink(candidate)
                removed.append(candidate)
        except OSError:
            continue  # locked: a live writer owns it (or it vanished meanwhile)
        finally:
            os.close(fd)
    return removed


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` as UTF-8 exactly as given (no newline translation), atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(value: object) -> str:
    """`value` as JSON that is always valid UTF-8 to write: a string holding bytes that are not
    UTF-8 (a file name, a command from the command line, a model's `\\udcff`: Python reads them
    as lone surrogates) has each written as its `\\udcNN` escape, which `json.loads` reads back
    as it was."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text


def utf8_text(text: str) -> str:
    """`text` with each lone surrogate written as the `\\xNN` escape of the byte it stands for,
    so that it can be stored or shown as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda match: f"\\x{ord(match.group()) & 0xFF:02x}", text)
    return text


def move_aside(path: Path) -> Path:
    """Rename an unreadable file to `NAME.broken-STAMP` (a counter added should that exist), so
    that nothing is lost and a fresh file can take its place; the new path is returned. The
    rename is atomic: the file is either where it was or aside, never half of each."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{counter}")
    os.replace(path, target)
    return target


def sources_crc(base: str, parts: Sequence[str]) -> str | None:
    """A CRC of the text of the `.py` files of each of `parts` (a folder or a file, below
    `base`), read and not loaded: a cache stamped with it is ignored once that code changes.
    zlib, not hashlib, which would load OpenSSL. None when a source cannot be read."""
    crc = 0
    try:
        for part in parts:
            path = os.path.join(base, part)
            names = (sorted(os.path.join(path, name) for name in os.listdir(path)
                            if name.endswith(".py"))
                     if os.path.isdir(path) else [path])
            for name in names:
                with open(name, "rb") as handle:
                    crc = zlib.crc32(handle.read(), crc)
    except OSError:
        return None
    return f"{crc:08x}"

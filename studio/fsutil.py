"""Writing files so that a crash never leaves half of one behind."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, so no temp file is cleaned
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".tmp"


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def atomic_write_bytes(
    path: Path, data: bytes, *, durable: bool = True,
    before_replace: Callable[[], None] | None = None,
) -> None:
    """Write `data` to a temp file beside `path`, flush it to disk, then rename it over `path`.

    The file's permission bits survive the rewrite, so an executable script stays executable.
    A cache passes `durable=False` to skip waiting for the disk: after a power cut its file may
    be old or empty, which a cache that checks what it reads survives, and no reader ever sees
    half of one. `before_replace` runs last before the rename; whatever it raises leaves `path`
    as it was and the temp file removed.

    The temp file is locked while it lives, so `remove_stale_temps` can tell one a killed
    process left behind from one being written.
    """
    path = Path(path)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
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
            if mode is not None:
                os.chmod(tmp, mode)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
            if before_replace is not None:
                before_replace()
            # Renamed while still locked: until then, no cleaner may take it for a stale one.
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


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

"""Writing files so that a crash never leaves half of one behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write `data` to a temp file beside `path`, flush it to disk, then rename it over `path`.

    The file's permission bits survive the rewrite, so an executable script stays executable.
    A cache passes `durable=False` to skip waiting for the disk: after a power cut its file may
    be old or empty, which a cache that checks what it reads survives, and no reader ever sees
    half of one.
    """
    path = Path(path)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` as UTF-8 exactly as given (no newline translation), atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))

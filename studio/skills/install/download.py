"""Installing skills from a URL: download, check, show, then write, or write nothing at all.

    plan = prepare_install(url, into)       # download, unpack into a scratch folder, validate
    ... show plan.skills, their problems and plan.replaced; ask before replacing ...
    commit_install(plan)                    # move the skills into place, record the install
    plan.discard()                          # always: removes the scratch folder

The scratch folder sits beside the target (`into/.studio-install-*`), so moving a skill into
place is a rename on the same file system: a reader sees the old skill or the new one, never half.
The download streams into a file in it, never into memory, and must finish within a deadline at
no less than a minimum rate (a server trickling a byte every few seconds is given up on). The
install holds a lock on its scratch folder while it lives; a folder whose lock nobody holds was
left by a killed install, and the next install into that folder removes it
(`remove_leftovers`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from studio.skills.library.archive import ArchiveError, Limits, unpack

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: leftovers are removed once an hour old
    fcntl = None  # type: ignore[assignment]
from studio.errors import StudioError
from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill
from studio.skills.install.localstate import note_installed
from studio.skills.install.lockfile import (
    LockError,
    LockFile,
    file_digests,
    lock_path,
    read_lock_file,
    studio_record,
)
from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE, Diagnostic, Severity

MAX_DOWNLOAD = 50 << 20
SCRATCH_PREFIX = ".studio-install-"
_LOCK = ".lock"
# A scratch folder without its lock yet is being made; one that stays so this long is a leftover.
_UNLOCKED_GRACE = 3600.0
DEFAULT_LIMITS = Limits()
# Seconds a whole download may take, and the least it must send (bytes a second, over a window).
DEADLINE = 120.0
MIN_RATE = 1024
RATE_WINDOW = 30.0

Progress = Callable[[int, int | None], None]


class InstallError(StudioError):
    """The install is refused or failed; nothing was written. The message says why."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """How long a download may take: `deadline` seconds in all, and at least `min_rate` bytes a
    second over every `window` seconds (a server that sends nothing for `window` is given up)."""

    deadline: float = DEADLINE
    min_rate: int = MIN_RATE
    window: float = RATE_WINDOW


DEFAULT_TRANSFER = Transfer()


@dataclass(frozen=True, slots=True)
class FoundSkill:
    """One skill in the archive: its folder name, where it waits and where it would go."""

    folder: str
    name: str | None
    staged: Path
    destination: Path
    diagnostics: tuple[Diagnostic, ...]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def replaces(self) -> bool:
        return self.destination.exists()


@dataclass(slots=True)
class InstallPlan:
    """What an install would write. `url` is what was asked for; `source_type`, `source`
    (the lock file's `source`) and `ref` say where it came from, `commit` the git commit."""

    url: str
    into: Path
    sha256: str
    scratch: Path
    skills: list[FoundSkill] = field(default_factory=list)
    source_type: str = "archive"
    source: str = ""
    ref: str | None = None
    commit: str = ""
    # The `.git` folders the archive carried, left out (their hooks and config run commands).
    left_out: list[str] = field(default_factory=list)
    lock: int | None = None
    # Each skill's own lock-file data, by folder: what an MCP server's manifest said of it.
    pins: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def replaced(self) -> list[FoundSkill]:
        return [skill for skill in self.skills if skill.replaces]

    @property
    def invalid(self) -> list[FoundSkill]:
        return [skill for skill in self.skills if skill.errors]

    def discard(self) -> None:
        _remove(self.scratch)
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def describe(self) -> list[str]:
        """What the archive holds, as the command line and the window show it before writing:
        the whole commit (or the archive's sha256, or the MCP server's verified manifest), each
        skill, whether it is new or replaces one, its problems and each of its files with its
        sha256."""
        if self.pins:
            what = " (every file verified against the server's manifest)"
        else:
            what = (f" (commit {self.commit})" if self.commit
                    else f" (sha256 {self.sha256})" if self.sha256 else "")
        lines = [f"{self.url}{what} holds:"]
        for skill in self.skills:
            action = "replaces the installed one" if skill.replaces else "new"
            lines.append(f"  {skill.folder}: {action}")
            lines.extend(f"    {d.severity} {d.code} line {d.line}: {d.message}"
                         for d in skill.diagnostics)
            # The exact bytes about to be written, as `sha256sum` prints them.
            lines.extend(f"    {digest}  {relative}"
                         for relative, digest in file_digests(skill.staged).items())
        for git in self.left_out:
            lines.append(f"  {git}: left out (a repository's own .git is never installed: its "
                         "hooks and config could run commands)")
        return lines


def open_lock(into: Path) -> LockFile:
    """The lock file installs into `into` record in. Raises InstallError, before anything is
    written, for one that cannot be read: writing over it would lose another tool's records."""
    try:
        return read_lock_file(lock_path(into))
    except LockError as exc:
        raise InstallError(f"{exc}. The install stopped so that the lock file's records are "
                           "not lost; nothing was written") from None


def download(url: str, target: Path, max_bytes: int = MAX_DOWNLOAD,
             progress: Progress | None = None, transfer: Transfer = DEFAULT_TRANSFER) -> str:
    """Stream `url` into the file `target`; return its sha256. Raises InstallError past
    `max_bytes`, past the transfer's deadline or under its minimum rate, on an HTTP error status
    or when the server cannot be reached."""
    digest = hashlib.sha256()
    start = time.monotonic()
    wait = min(transfer.window, transfer.deadline)
    timeout = httpx.Timeout(wait, connect=min(30.0, wait))
    try:
        with httpx.stream("GET", url, follow_redirects=True, timeout=timeout,
                          headers={"Accept-Encoding": "identity"}) as response:
            if response.status_code != 200:
                raise InstallError(f"{url} answered {response.status_code} "
                                   f"{response.reason_phrase}; check the URL")
            stated = response.headers.get("content-length")
            total = int(stated) if stated and stated.isdigit() else None
            if total is not None and total > max_bytes:
                raise InstallError(f"{url} is {total} bytes, more than the {max_bytes} allowed")
            received = 0
            window_start, window_bytes = start, 0
            with open(target, "xb") as out:
                for chunk in response.iter_bytes():
                    received += len(chunk)
                    window_bytes += len(chunk)
                    if received > max_bytes:
                        raise InstallError(f"{url} sent more than the {max_bytes} bytes allowed")
                    digest.update(chunk)
                    out.write(chunk)
                    if progress is not None:
                        progress(received, total)
                    now = time.monotonic()
                    if now - start > transfer.deadline:
                        raise InstallError(_too_slow(url, received, transfer,
                                                     f"did not finish within {transfer.deadline:g} s"))
                    if now - window_start >= transfer.window:
                        if window_bytes < transfer.min_rate * transfer.window:
                            raise InstallError(_too_slow(
                                url, received, transfer,
                                f"sent {window_bytes:,} bytes in {now - window_start:.0f} s, less "
                                f"than the {transfer.min_rate:,} bytes a second required"))
                        window_start, window_bytes = now, 0
    except httpx.InvalidURL as exc:
        raise InstallError(f"{url!r} is not a URL that can be downloaded: {exc}") from None
    except httpx.UnsupportedProtocol:
        raise InstallError(f"{url!r} is not an http:// or https:// URL") from None
    except httpx.TimeoutException:
        raise InstallError(_too_slow(url, None, transfer,
                                     f"sent nothing for {wait:g} s")) from None
    except httpx.HTTPError as exc:
        raise InstallError(f"cannot download {url}: {exc or type(exc).__name__}") from None
    return digest.hexdigest()


def _too_slow(url: str, received: int | None, transfer: Transfer, what: str) -> str:
    got = f" after {received:,} bytes" if received else ""
    return (f"the download of {url} was stopped{got}: the server {what} (a download must end "
            f"within {transfer.deadline:g} s); try again later or another source")


def remove_leftovers(into: Path, *, now: float | None = None) -> list[Path]:
    """Remove the scratch folders in `into` that killed installs left (none of them holds its
    lock any more); the folders removed. A live install's folder is never touched."""
    removed: list[Path] = []
    try:
        names = [name for name in os.listdir(into) if name.startswith(SCRATCH_PREFIX)]
    except OSError:
        return removed
    now = time.time() if now is None else now
    for name in names:
        folder = into / name
        try:
            info = os.lstat(folder)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        if _abandoned(folder, info.st_mtime, now):
            _remove(folder)
            removed.append(folder)
    return removed


def _abandoned(folder: Path, made: float, now: float) -> bool:
    try:
        fd = os.open(folder / _LOCK, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return now - made >= _UNLOCKED_GRACE
    except OSError:
        return False
    try:
        if fcntl is None:
            return now - made >= _UNLOCKED_GRACE
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a live install holds it
        return True
    finally:
        os.close(fd)


def _remove(folder: Path) -> None:
    with contextlib.suppress(OSError):
        for parent, _folders, _files in os.walk(folder):
            os.chmod(parent, stat.S_IRWXU)
    shutil.rmtree(folder, ignore_errors=True)


def _lock(scratch: Path) -> int | None:
    fd = os.open(scratch / _LOCK, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def prepare_install(url: str, into: Path, *, max_bytes: int = MAX_DOWNLOAD,
                    limits: Limits = DEFAULT_LIMITS, progress: Progress | None = None,
                    transfer: Transfer | None = None) -> InstallPlan:
    """Download and unpack `url` into a scratch folder inside `into`, and find and validate its
    skills. Raises InstallError (having removed the scratch folder) when any check fails.
    Leftovers of killed installs into `into` are removed first. `transfer` bounds the download
    (default: `DEFAULT_TRANSFER`, read when called)."""
    open_lock(into)
    transfer = transfer if transfer is not None else DEFAULT_TRANSFER
    try:
        into.mkdir(parents=True, exist_ok=True)
        remove_leftovers(into)
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=into))
    except OSError as exc:
        raise InstallError(f"cannot write to {into}: {exc.strerror or exc}") from None
    plan = InstallPlan(url, into, "", scratch)
    try:
        plan.lock = _lock(scratch)
        archive = scratch / "download"
        plan.sha256 = download(url, archive, max_bytes, progress, transfer)
        unpacked = scratch / "unpacked"
        unpacked.mkdir()
        plan.left_out = unpack(archive, unpacked, limits).git
        archive.unlink()
        plan.skills = found_skills(unpacked, into)
    except ArchiveError as exc:
        plan.discard()
        raise InstallError(f"{url} was refused: {exc}") from None
    except OSError as exc:
        plan.discard()
        raise InstallError(f"cannot write to {scratch}: {exc.strerror or exc}") from None
    except BaseException:
        plan.discard()
        raise
    if not plan.skills:
        plan.discard()
        raise InstallError(f"{url} holds no skill (no folder with a SKILL.md)")
    return plan


def found_skills(unpacked: Path, into: Path) -> list[FoundSkill]:
    """The skills in the folder `unpacked` (each folder holding a SKILL.md, not looking
    further into it), validated, each with where it would go in `into`."""
    found: list[FoundSkill] = []
    by_folder: dict[str, Path] = {}
    for folder, dirs, files in os.walk(unpacked):
        dirs.sort()
        if SKILL_FILE not in files and LOWERCASE_SKILL_FILE not in files:
            continue
        directory = Path(folder)
        # A pack whose root is itself one skill installs under the archive's name for it.
        name = directory.name if directory != unpacked else None
        result = validate_skill(load_skill(directory))
        folder_name = name or result.skill.name or "skill"
        if folder_name in by_folder:
            raise InstallError(
                f"the archive holds two skills in folders named {folder_name!r} "
                f"({by_folder[folder_name].relative_to(unpacked)} and "
                f"{directory.relative_to(unpacked)}); they cannot both be installed"
            )
        if "/" in folder_name or "\\" in folder_name or folder_name.startswith("."):
            raise InstallError(
                f"the skill folder name {folder_name!r} is hidden or not a single folder name"
            )
        by_folder[folder_name] = directory
        found.append(FoundSkill(folder_name, result.skill.name, directory, into / folder_name,
                                tuple(result.diagnostics)))
        dirs.clear()  # a skill's own subfolders (scripts/, references/) are not skills
    return found


def commit_install(plan: InstallPlan, *, now: datetime | None = None,
                   studio: dict[str, Any] | None = None) -> None:
    """Move every skill into place (a replaced skill's old folder is removed only once the new
    one is in place) and record the install. Raises InstallError when the plan has invalid
    skills; on a failure midway, what was moved is put back."""
    if plan.invalid:
        names = ", ".join(skill.folder for skill in plan.invalid)
        raise InstallError(f"not installed: {names} has errors")
    lock = open_lock(plan.into)
    moved: list[tuple[FoundSkill, Path | None]] = []
    try:
        for skill in plan.skills:
            old: Path | None = None
            if skill.replaces:
                old = plan.scratch / f"old-{skill.folder}"
                os.rename(skill.destination, old)
            try:
                os.rename(skill.staged, skill.destination)
            except OSError:
                if old is not None:
                    os.rename(old, skill.destination)
                raise
            moved.append((skill, old))
        when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
        for skill in plan.skills:
            extra: dict[str, Any] = {"commit": plan.commit} if plan.commit else {}
            extra["files"] = file_digests(skill.destination)
            extra.update(studio or {})
            extra.update(plan.pins.get(skill.folder, {}))
            lock.put(studio_record(skill.folder, skill.destination, plan.url, when, plan.sha256,
                                   source=plan.source or None, source_type=plan.source_type,
                                   ref=plan.ref, extra=extra))
        lock.write()
        note_installed(plan.into, {skill.folder: plan.commit for skill in plan.skills})
    except OSError as exc:
        for skill, old in reversed(moved):
            with contextlib.suppress(OSError):
                os.rename(skill.destination, skill.staged)
                if old is not None:
                    os.rename(old, skill.destination)
        raise InstallError(f"cannot install into {plan.into}: {exc.strerror or exc}; "
                           "nothing was changed") from None

"""Resource limits for a sandboxed command: what one run may take of the machine.

Most are rlimits set inside the sandbox before the command starts (`ulimit -S -H`: address
space, file size, CPU seconds, open files, processes), hard limits the command, holding no
capabilities, cannot raise again. The process limit is the kernel's count per user, which does not
apply to root at all: run as root, a pids cgroup (v1's pids controller, or a delegated v2 group)
holds the command and everything it starts instead, when one can be made."""

from __future__ import annotations

import contextlib
import itertools
import os
import shlex
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
_COUNTER = itertools.count()


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run may take. Sizes in MiB; 0 leaves that limit unset.

    Attributes:
        memory_mb: address space of each process (RLIMIT_AS).
        file_mb: the largest file it may write (RLIMIT_FSIZE).
        cpu_seconds: CPU time of each process (RLIMIT_CPU).
        open_files: descriptors of each process (RLIMIT_NOFILE).
        processes: processes at once (RLIMIT_NPROC, or a pids cgroup as root).
        tmp_mb: the size of the sandbox's private /tmp.
    """

    memory_mb: int = 4096
    file_mb: int = 1024
    cpu_seconds: int = 600
    open_files: int = 1024
    processes: int = 512
    tmp_mb: int = 512

    def ulimit_script(self, with_processes: bool, already: int = 0) -> str:
        """The shell line setting the limits, soft and hard alike. The kernel counts every
        process of the user against RLIMIT_NPROC, so the processes the user `already` runs
        are added to the command's share."""
        parts = []
        for flag, value in (("-v", self.memory_mb * 1024), ("-f", self.file_mb * 1024 // 1),
                            ("-t", self.cpu_seconds), ("-n", self.open_files)):
            if value > 0:
                parts.append(f"ulimit -S -H {flag} {value}")
        if with_processes and self.processes > 0:
            parts.append(f"ulimit -S -H -u {self.processes + already}")
        return "; ".join(parts)

    def describe(self) -> str:
        shown = []
        if self.memory_mb:
            shown.append(f"{self.memory_mb:,} MiB of memory")
        if self.processes:
            shown.append(f"{self.processes} processes")
        if self.cpu_seconds:
            shown.append(f"{self.cpu_seconds} s of CPU")
        if self.tmp_mb:
            shown.append(f"{self.tmp_mb} MiB of /tmp")
        return "at most " + ", ".join(shown) if shown else "no resource limits"


def limited(command: str, limits: Limits, *, root: bool) -> list[str]:
    """The words that run `command` with bash under `limits`. A limit the system refuses to set
    is left out rather than failing the run; the process limit is left to a cgroup as root (the
    kernel does not count root's processes)."""
    script = limits.ulimit_script(with_processes=not root,
                                  already=0 if root else user_processes())
    if not script:
        return ["bash", "-c", command]
    wrapper = "{ " + "; ".join(f"{part} 2>/dev/null" for part in script.split("; ")) + "; }; " \
        + 'exec bash -c "$1"'
    return ["bash", "-c", wrapper, "bash", command]


def user_processes() -> int:
    """How many processes (threads included: the kernel counts tasks) this user runs now."""
    uid = os.getuid()
    count = 0
    try:
        entries = os.scandir("/proc")
    except OSError:
        return 0
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                continue
    return count


@dataclass(slots=True)
class PidsGroup:
    """A pids cgroup for one run: `prefix` moves the command into it before anything runs."""

    folder: Path

    @property
    def prefix(self) -> list[str]:
        procs = shlex.quote(str(self.folder / "cgroup.procs"))
        return ["sh", "-c", f'echo $$ > {procs} && exec "$@"', "studio-limits"]

    def close(self) -> None:
        """End whatever is left in the group, then remove it."""
        for _ in range(3):
            try:
                pids = [int(p) for p in (self.folder / "cgroup.procs").read_text().split()]
            except (OSError, ValueError):
                break
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.folder.rmdir()


def _pids_parent() -> Path | None:
    """A cgroup folder with the pids controller that this process may make groups in."""
    v1 = CGROUP_ROOT / "pids"
    if (v1 / "pids.max").exists() or (v1 / "cgroup.procs").exists():
        return v1 if os.access(v1, os.W_OK) else None
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    own = next((line.split("::", 1)[1] for line in lines if line.startswith("0::")), None)
    for base in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
        if own is None or not (base / "cgroup.controllers").exists():
            continue
        folder = base / own.lstrip("/")
        try:
            if "pids" in (folder / "cgroup.subtree_control").read_text().split() \
                    and os.access(folder, os.W_OK):
                return folder
        except OSError:
            continue
    return None


@contextlib.contextmanager
def pids_group(limit: int) -> Iterator[PidsGroup | None]:
    """A pids cgroup holding at most `limit` processes for one run, or None where none can be
    made (no pids controller, or no right to make groups): then the run has no process limit
    beyond RLIMIT_NPROC."""
    parent = _pids_parent() if limit > 0 else None
    group: PidsGroup | None = None
    if parent is not None:
        folder = parent / f"studio-run-{os.getpid()}-{next(_COUNTER)}"
        try:
            folder.mkdir()
            (folder / "pids.max").write_text(f"{limit}\n")
            group = PidsGroup(folder)
        except OSError:
            with contextlib.suppress(OSError):
                folder.rmdir()
    try:
        yield group
    finally:
        if group is not None:
            group.close()

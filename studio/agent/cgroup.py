"""A process cap for runs the studio starts as root.

The kernel never counts uid 0's processes against RLIMIT_NPROC, and a sandbox started by root
keeps uid 0 outside its user namespace, so the rlimit the launcher sets does not hold there. A
pids cgroup does: a group of its own per run, under the studio's own (cgroup v1's pids hierarchy
or a v2 group with the pids controller enabled for its children), which the sandbox enters
before bubblewrap starts, so everything it starts is counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
_COUNTER = itertools.count()
_REMOVE_TRIES = 100


def _own_groups() -> list[tuple[str, str]]:
    """(controllers, path) of each line of /proc/self/cgroup."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) == 3:
            found.append((parts[1], parts[2]))
    return found


def pids_parent() -> Path | None:
    """The folder a run's pids group can be made in, or None when there is none to use."""
    if os.getuid() != 0:
        return None
    for controllers, path in _own_groups():
        if "pids" in controllers.split(","):
            folder = CGROUP_ROOT / "pids" / path.lstrip("/")
            if (folder / "cgroup.procs").exists() and os.access(folder, os.W_OK):
                return folder
    for controllers, path in _own_groups():
        if controllers == "":
            for mount in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
                folder = mount / path.lstrip("/")
                try:
                    enabled = (folder / "cgroup.subtree_control").read_text().split()
                except OSError:
                    continue
                if "pids" in enabled and os.access(folder, os.W_OK):
                    return folder
    return None


def sweep(parent: Path) -> list[Path]:
    """Remove the groups studio processes that are gone left behind (a run cancelled while its
    processes were still leaving): only folders named as ours, of a process that no longer
    exists, and empty (the kernel refuses to remove one that is not). The folders removed."""
    removed: list[Path] = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return removed
    for folder in entries:
        parts = folder.name.split("-")
        if len(parts) != 4 or parts[:2] != ["studio", "run"] or not parts[2].isdigit():
            continue
        owner = int(parts[2])
        if owner == os.getpid() or Path(f"/proc/{owner}").exists():
            continue
        with contextlib.suppress(OSError):
            folder.rmdir()
            removed.append(folder)
    return removed


class ProcessCap:
    """One run's pids group: `prefix` enters it and becomes the sandbox; `remove` ends it.

    Attributes:
        folder: the group's folder.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def create(cls, limit: int) -> ProcessCap | None:
        """A group holding at most `limit` processes, or None where none can be made."""
        parent = pids_parent()
        if parent is None or limit <= 0:
            return None
        sweep(parent)
        folder = parent / f"studio-run-{os.getpid()}-{next(_COUNTER)}"
        try:
            folder.mkdir()
            (folder / "pids.max").write_text(str(limit))
        except OSError:
            with contextlib.suppress(OSError):
                folder.rmdir()
            return None
        return cls(folder)

    @property
    def prefix(self) -> list[str]:
        # The shell enters the group and execs the sandbox: nothing starts outside it.
        return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.folder / "cgroup.procs")]

    def _members(self) -> list[int]:
        try:
            return [int(pid) for pid in (self.folder / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    async def remove(self) -> None:
        """Kill what is left in the group and remove it, once the kernel has let it go."""
        for _ in range(_REMOVE_TRIES):
            for pid in self._members():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            try:
                self.folder.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                # Killed processes take a moment to leave the group.
                await asyncio.sleep(0.02)

"""Finding a command's processes from outside, in /proc."""

from __future__ import annotations

import os
from pathlib import Path


def processes_in_group(pgid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


def processes_in(folder: Path) -> list[int]:
    """Live processes working in `folder`: how a test finds a command's processes from outside
    its sandbox, where the pids and groups it sees for itself mean nothing."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
            with open(f"/proc/{entry}/stat") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if cwd == str(folder) and state != "Z":
            found.append(int(entry))
    return found

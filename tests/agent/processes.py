"""Finding a command's processes from outside, in /proc: how a test sees what a sandboxed command
left behind, where the pids and groups the command sees for itself mean nothing."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path


def live_processes(matches: Callable[[int, list[str]], bool]) -> list[int]:
    """The pids of the live (not zombie) processes for which `matches(pid, stat fields after the
    command name)` holds; one that ends while it is looked at is left out."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            if fields[0] != "Z" and matches(int(entry), fields):
                found.append(int(entry))
        except OSError:
            continue
    return found


def processes_in_group(pgid: int) -> list[int]:
    return live_processes(lambda _pid, fields: int(fields[2]) == pgid)


def processes_in(folder: Path) -> list[int]:
    """Live processes working in `folder`."""
    return live_processes(lambda pid, _fields: os.readlink(f"/proc/{pid}/cwd") == str(folder))


def sleepers(token: str) -> list[int]:
    """Live `sleep` processes whose command line holds `token`."""

    def matches(pid: int, _fields: list[str]) -> bool:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        return cmdline.startswith(b"sleep\0") and token.encode() in cmdline

    return live_processes(matches)


def sleep_token() -> str:
    """Digits that make a `sleep 302.<token>` findable in /proc (sleep wants a number)."""
    return f"{secrets.randbelow(10**8):08d}"

"""Real Skills-extension servers for the tests (FastMCP's, see skills_server.py): the `mcp+`
address of one over stdio, and one over HTTP on 127.0.0.1, started and waited for, and ended by
its PID."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

SERVER = Path(__file__).with_name("skills_server.py")
PATIENCE = 60.0


def stdio_spec(folder: Path, *extra: str) -> str:
    return "mcp+stdio:" + shlex.join([sys.executable, str(SERVER), str(folder), *extra])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _accepting(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def http_server(folder: Path, home: Path, *extra: str) -> Iterator[str]:
    """The `mcp+http://` address of a server of `folder` (with `home` as its HOME), once it
    accepts connections."""
    port = _free_port()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local/share"), "XDG_CACHE_HOME": str(home / ".cache")}
    process = subprocess.Popen(
        [sys.executable, str(SERVER), str(folder), "--http", str(port), *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        give_up = time.monotonic() + PATIENCE
        # Polling a condition no one can signal: the server's socket opening.
        while not _accepting(port):
            assert process.poll() is None, "the test server ended before it listened"
            assert time.monotonic() < give_up, "the test server never listened"
            time.sleep(0.05)
        yield f"mcp+http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def write_served(folder: Path, name: str, description: str = "", body: str = "Do it.\n",
                 files: dict[str, str] | None = None) -> Path:
    skill = folder / name
    skill.mkdir(parents=True, exist_ok=True)
    description = description or f"Does {name} things. Use when asked to {name}."
    (skill / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}",
                                    encoding="utf-8")
    for path, text in (files or {}).items():
        (skill / path).parent.mkdir(parents=True, exist_ok=True)
        (skill / path).write_text(text, encoding="utf-8")
    return skill


def fill(folder: Path) -> None:
    """The three skills the served tests start from, and nothing else."""
    if folder.exists():
        shutil.rmtree(folder)
    write_served(folder, "hello", files={"scripts/hi.sh": "#!/bin/sh\necho hi\n",
                                         "references/notes.md": "Notes.\n"})
    write_served(folder, "weather")
    write_served(folder, "zebra")

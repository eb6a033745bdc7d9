"""Running a command for a skill: in its own process group, in the skill's folder, with a timeout,
a cap on output and an environment without secrets. Cancelling kills the whole group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_TIMEOUT = 60.0
DEFAULT_OUTPUT_CAP = 50_000
KILL_GRACE = 2.0

_SECRET = re.compile(
    r"(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|"
    r"AUTH|COOKIE|SESSION)",
    re.IGNORECASE,
)
_SECRET_NAMES = frozenset({"SSH_AUTH_SOCK", "GPG_AGENT_INFO", "KRB5CCNAME", "NETRC"})


def clean_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment minus anything that looks like a token, key, password or agent socket."""
    source = os.environ if environ is None else environ
    return {
        name: value
        for name, value in source.items()
        if not _SECRET.search(name) and name not in _SECRET_NAMES
    }


@dataclass(frozen=True, slots=True)
class RunResult:
    exit_code: int | None
    output: str
    duration: float
    truncated: bool = False
    timed_out: bool = False

    def for_model(self) -> str:
        """What goes back to the model: exit code, duration and output, with notes where cut."""
        lines = []
        if self.timed_out:
            lines.append(f"timed out after {self.duration:.1f} s; the process was killed")
        else:
            lines.append(f"exit code {self.exit_code} after {self.duration:.2f} s")
        lines.append(self.output if self.output else "(no output)")
        if self.truncated:
            lines.append("[output cut: only the first part is shown]")
        return "\n".join(lines)


def _kill_group(process: asyncio.subprocess.Process, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


async def _stop(process: asyncio.subprocess.Process) -> None:
    _kill_group(process, signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), KILL_GRACE)
    except TimeoutError:
        _kill_group(process, signal.SIGKILL)
        await process.wait()
    _kill_group(process, signal.SIGKILL)


async def run_command(
    command: str,
    cwd: Path,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    output_cap: int = DEFAULT_OUTPUT_CAP,
    env: Mapping[str, str] | None = None,
    on_output: Callable[[str], None] | None = None,
) -> RunResult:
    """Run `command` with bash in `cwd`; stdout and stderr together, as a terminal would show them."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        "bash", "-c", command,
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=dict(env) if env is not None else clean_environment(),
        start_new_session=True,
    )
    assert process.stdout is not None
    chunks: list[str] = []
    kept = 0
    truncated = False
    timed_out = False

    async def pump() -> None:
        nonlocal kept, truncated
        assert process.stdout is not None
        while True:
            data = await process.stdout.read(4096)
            if not data:
                break
            text = data.decode("utf-8", errors="replace")
            if kept < output_cap:
                piece = text[: output_cap - kept]
                chunks.append(piece)
                kept += len(piece)
                if on_output is not None:
                    on_output(piece)
                truncated = truncated or len(piece) < len(text)
            else:
                truncated = True

    reader = asyncio.ensure_future(pump())
    try:
        await asyncio.wait_for(process.wait(), timeout)
    except TimeoutError:
        timed_out = True
        await _stop(process)
    except asyncio.CancelledError:
        reader.cancel()
        await asyncio.shield(_stop(process))
        raise
    # Background children may still hold the pipe open: the command is over, so they go too.
    _kill_group(process, signal.SIGKILL)
    try:
        await asyncio.wait_for(reader, KILL_GRACE)
    except TimeoutError:
        truncated = True
    return RunResult(
        exit_code=process.returncode if not timed_out else None,
        output="".join(chunks),
        duration=time.monotonic() - started,
        truncated=truncated,
        timed_out=timed_out,
    )

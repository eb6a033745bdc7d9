"""Running a command for a skill: in its own process group, in the skill's folder, with a timeout,
a cap on output and an environment built from an allowlist (so no secret of the studio's reaches
it), inside the OS sandbox when one is given.
Cancelling kills the whole group (and with bubblewrap the whole sandbox: its PID namespace ends
with the command, and with the studio)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from studio.agent.cgroup import ProcessCap
from studio.agent.netproxy import INSIDE_SOCKET, HostProxy, OnConnection
from studio.agent.sandbox import (
    Sandbox,
    Support,
    bwrap_argv,
    detect,
    sandbox_exec_argv,
    seccomp_memfd,
)
from studio.errors import StudioError

DEFAULT_TIMEOUT = 60.0
DEFAULT_OUTPUT_CAP = 50_000
KILL_GRACE = 2.0
# Linux refuses a single argument longer than 32 pages (MAX_ARG_STRLEN) with E2BIG.
MAX_COMMAND_BYTES = 128 * 1024

# What a command sees of the studio's environment: names that locate programs and set the
# language, never a credential. Anything else (DATABASE_URL, GH_PAT, ...) must be granted by name.
ALLOWED_ENV = frozenset({"PATH", "HOME", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR", "USER",
                         "LOGNAME", "SHELL"})
# Every git inside ignores the system's and the user's config and runs no repository's hooks,
# fsmonitor or pager: a skill folder that ships its own `.git` runs nothing through git.
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
}
GIT_CONFIG = (("core.fsmonitor", "false"), ("core.hooksPath", "/dev/null"), ("core.pager", "cat"))


def clean_environment(environ: Mapping[str, str] | None = None,
                      allow: Iterable[str] = ()) -> dict[str, str]:
    """The names of `environ` (default: the studio's) on the allowlist, `LC_*` and the names in
    `allow`, plus the settings that make every git inside harmless."""
    source = os.environ if environ is None else environ
    granted = set(allow)
    env = {name: value for name, value in source.items()
           if name in ALLOWED_ENV or name.startswith("LC_") or name in granted}
    env.update(GIT_ENV)
    env["GIT_CONFIG_COUNT"] = str(len(GIT_CONFIG))
    for index, (key, value) in enumerate(GIT_CONFIG):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


class RunError(StudioError):
    """The command could not be started; the message says why and what to do."""


def command_problem(command: str) -> str | None:
    """Why `command` cannot be run at all, or None: checked before anyone is asked about it."""
    size = len(command.encode("utf-8", errors="surrogateescape"))
    if size > MAX_COMMAND_BYTES:
        return (f"the command is {size:,} bytes long; a command can be at most "
                f"{MAX_COMMAND_BYTES:,} bytes (the system's limit for one argument). Write the "
                "script to a file in the skill's folder in smaller steps and run that file")
    if "\0" in command:
        return "the command contains a NUL character, which no command line can hold"
    return None


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
    sandbox: Sandbox | None = None,
    support: Support | None = None,
    allow_env: Iterable[str] = (),
    on_connection: OnConnection | None = None,
) -> RunResult:
    """Run `command` with bash in `cwd`; stdout and stderr together, as a terminal would show them.

    With a `sandbox`, the command runs inside it or not at all (`RunError` when `support`, by
    default what `detect()` found, cannot enforce one). The environment is `env`, or the
    studio's as `clean_environment` keeps it, with the names in `allow_env` granted. A sandbox
    with granted hosts gets the network proxy for the run; `on_connection(host, port, allowed)`
    hears of every connection it lets through or refuses."""
    problem = command_problem(command)
    if problem is not None:
        raise RunError(problem)
    environment = dict(env) if env is not None else clean_environment(allow=allow_env)
    environment.pop("STUDIO_PROXY_SOCKET", None)
    async with contextlib.AsyncExitStack() as cleanup:
        prefix: list[str] = []
        fds: tuple[int, ...] = ()
        if sandbox is not None:
            support = support if support is not None else detect()
            if support.kind == "bwrap":
                if not os.access(support.program, os.X_OK):
                    raise RunError(f"the command could not be started: {support.program} "
                                   "cannot be run; reinstall bubblewrap")
                fd = seccomp_memfd()
                cleanup.callback(os.close, fd)
                fds = (fd,)
                socket = None
                if sandbox.proxied:
                    proxy = await cleanup.enter_async_context(
                        HostProxy(sandbox.hosts, on_connection))
                    socket = proxy.socket_path
                    environment["STUDIO_PROXY_SOCKET"] = INSIDE_SOCKET
                prefix = bwrap_argv(sandbox, cwd, support.program, seccomp_fd=fd,
                                    proxy_socket=socket)
                if os.getuid() == 0:
                    # The launcher's RLIMIT_NPROC does not hold for root: a pids group does.
                    cap = ProcessCap.create(sandbox.limits.processes)
                    if cap is not None:
                        cleanup.push_async_callback(cap.remove)
                        prefix = [*cap.prefix, *prefix]
            elif support.kind == "sandbox-exec":
                private = Path(cleanup.enter_context(tempfile.TemporaryDirectory())).resolve()
                environment["TMPDIR"] = str(private)
                prefix = sandbox_exec_argv(sandbox, private)
            else:
                raise RunError(f"the command was not run: {support.problem}")
        return await _run(command, cwd, prefix, environment, timeout, output_cap, on_output, fds)


async def _run(
    command: str,
    cwd: Path,
    prefix: list[str],
    env: dict[str, str],
    timeout: float,
    output_cap: int,
    on_output: Callable[[str], None] | None,
    fds: tuple[int, ...] = (),
) -> RunResult:
    started = time.monotonic()
    starting = asyncio.ensure_future(asyncio.create_subprocess_exec(
        *prefix, "bash", "-c", command,
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=env,
        start_new_session=True,
        pass_fds=fds,
    ))
    try:
        process = await asyncio.shield(starting)
    except asyncio.CancelledError:
        # Stopped while the process starts. Cancelled there, asyncio kills only the shell and
        # then waits for its output pipe, which whatever the shell started by then holds open:
        # a Stop waited as long as the command would have run. Let it start; end its group.
        with contextlib.suppress(OSError):
            await asyncio.shield(_stop(await starting))
        raise
    except OSError as exc:
        raise RunError(f"the command could not be started: {exc.strerror or exc}") from exc
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

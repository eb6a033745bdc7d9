"""Running a probe in the sandbox as root and as an ordinary user: the fixtures `user` (root and
"nobody", or just the user running the tests) and `place` (a folder outside /tmp the probe's user
owns), and `probe`, which runs a command in a sandbox as that user. When the tests run as root,
"nobody" (65534) starts bubblewrap through `setpriv`, the way an ordinary user's studio does (an
unprivileged user namespace)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from studio.agent.run import RunResult, clean_environment, run_command
from studio.agent.sandbox import Sandbox, bwrap_argv, detect, seccomp_memfd

SUPPORT = detect()
NOBODY = 65534
SETPRIV = shutil.which("setpriv")
# The interpreter "nobody" can run: the studio's may sit in root's private home.
SYSTEM_PYTHON = "/usr/bin/python3"



def _users() -> list[str]:
    return ["root", "user"] if os.getuid() == 0 else ["user"]


@pytest.fixture(params=_users())
def user(request: pytest.FixtureRequest) -> str:
    if request.param == "user" and os.getuid() == 0 and (
            SETPRIV is None or not os.access(SYSTEM_PYTHON, os.X_OK)):
        pytest.skip("running a probe as an ordinary user needs setpriv and /usr/bin/python3")
    return str(request.param)


@pytest.fixture
def place(user: str) -> Iterator[Path]:
    """A folder outside /tmp (replaced inside) that the probe's user owns, reachable by all."""
    folder = Path(tempfile.mkdtemp(prefix="studio-holds-", dir="/var/tmp"))
    folder.chmod(0o755)
    workspace = folder / "ws"
    workspace.mkdir()
    if user == "user" and os.getuid() == 0:
        os.chown(workspace, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def as_owner(path: Path, user: str) -> None:
    if user == "user" and os.getuid() == 0:
        for root, folders, files in os.walk(path):
            for name in (*folders, *files):
                os.lchown(os.path.join(root, name), NOBODY, NOBODY)
        os.lchown(path, NOBODY, NOBODY)


async def probe(command: str, cwd: Path, sandbox: Sandbox, user: str,
                allow_env: tuple[str, ...] = (), python: str = SYSTEM_PYTHON) -> RunResult:
    """`command` run in `sandbox` as `user`: through `run_command` for the current user, through
    setpriv and the same bubblewrap command line for "nobody" when the tests run as root."""
    if user == "root" or os.getuid() != 0:
        return await run_command(command, cwd, timeout=60, sandbox=sandbox, support=SUPPORT,
                                 allow_env=allow_env)
    assert SETPRIV is not None
    # An ordinary user's PATH holds no folder of root's home (which it could not read).
    sandbox = replace(sandbox, tools=())
    fd = seccomp_memfd()
    try:
        argv = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                *bwrap_argv(sandbox, cwd, SUPPORT.program, seccomp_fd=fd, python=python,
                            uid=NOBODY), "bash", "-c", command]
        process = await asyncio.create_subprocess_exec(
            *argv, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, env=clean_environment(allow=allow_env), pass_fds=(fd,),
            start_new_session=True)
        output, _ = await asyncio.wait_for(process.communicate(), 60)
    finally:
        os.close(fd)
    return RunResult(process.returncode, output.decode(errors="replace"), 0.0)

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from studio.agent.run import MAX_COMMAND_BYTES, RunError, clean_environment, run_command
from studio.agent.sandbox import Sandbox, Support


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


async def group_gone(pgid: int) -> bool:
    """Whether the group is gone, given the kernel a bounded while to reap what was killed."""
    for _ in range(200):
        if not processes_in_group(pgid):
            return True
        await asyncio.sleep(0.05)
    return not processes_in_group(pgid)


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


async def test_exit_code_output_and_cwd(tmp_path: Path) -> None:
    result = await run_command("pwd; echo oops >&2; exit 3", tmp_path)
    assert result.exit_code == 3
    assert result.output == f"{tmp_path}\noops\n"
    assert "exit code 3" in result.for_model()


async def test_output_is_capped_with_a_note(tmp_path: Path) -> None:
    result = await run_command("yes | head -c 300000", tmp_path, output_cap=1000)
    assert result.truncated and len(result.output) == 1000
    assert "output cut" in result.for_model()


async def test_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    result = await run_command(f"sleep 60 & echo $$ > {marker}; sleep 60", tmp_path, timeout=0.5)
    assert result.timed_out and result.exit_code is None
    assert "timed out" in result.for_model()
    assert await group_gone(int(marker.read_text()))


async def test_cancel_kills_the_whole_group(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    task = asyncio.ensure_future(run_command(f"echo $$ > {marker}; sleep 60 & sleep 60", tmp_path))
    for _ in range(100):
        if marker.exists() and marker.read_text().strip():
            break
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await group_gone(int(marker.read_text()))


async def test_output_streams_as_it_comes(tmp_path: Path) -> None:
    pieces: list[str] = []
    await run_command("echo one; sleep 0.2; echo two", tmp_path, on_output=pieces.append)
    assert "".join(pieces) == "one\ntwo\n" and len(pieces) == 2


def test_secrets_are_dropped_from_the_environment() -> None:
    env = clean_environment(
        {"PATH": "/bin", "HOME": "/h", "GITHUB_TOKEN": "x", "OPENAI_API_KEY": "x",
         "AWS_SECRET_ACCESS_KEY": "x", "SSH_AUTH_SOCK": "/s", "DB_PASSWORD": "x", "LANG": "C"}
    )
    assert env == {"PATH": "/bin", "HOME": "/h", "LANG": "C"}


async def test_the_child_sees_no_secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_API_KEY", "hunter2")
    result = await run_command("env", tmp_path)
    assert "hunter2" not in result.output and "PATH=" in result.output


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("echo " + "x" * MAX_COMMAND_BYTES, f"at most {MAX_COMMAND_BYTES:,} bytes"),
        ("echo a\0b", "contains a NUL character"),
    ],
)
async def test_a_command_no_system_can_run_is_a_clear_error(
    tmp_path: Path, command: str, problem: str
) -> None:
    with pytest.raises(RunError, match=problem):
        await run_command(command, tmp_path)


async def test_a_sandbox_that_is_not_there_runs_nothing(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="the command was not run: bwrap is missing"):
        await run_command("echo ran > ran.txt", tmp_path, sandbox=Sandbox.for_run(tmp_path),
                          support=Support(None, problem="bwrap is missing"))
    assert not (tmp_path / "ran.txt").exists()

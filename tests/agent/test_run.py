from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studio.agent.run import MAX_COMMAND_BYTES, RunError, clean_environment, run_command
from studio.agent.sandbox import Sandbox, Support
from tests.agent.processes import processes_in, processes_in_group
from tests.waiting import eventually


async def group_gone(pgid: int) -> bool:
    """Whether the group is gone, given the kernel a while to reap what was killed."""
    return await eventually(lambda: not processes_in_group(pgid))


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
    # Long enough for the shell to write its pid even on a loaded machine: the test reads it after.
    result = await run_command(f"echo $$ > {marker}; sleep 60 & sleep 60", tmp_path, timeout=3.0)
    assert result.timed_out and result.exit_code is None
    assert "timed out" in result.for_model()
    assert await group_gone(int(marker.read_text()))


async def test_cancel_kills_the_whole_group(tmp_path: Path) -> None:
    started = asyncio.Event()
    output: list[str] = []

    def on_output(piece: str) -> None:
        output.append(piece)
        if piece.endswith("\n"):
            started.set()

    task = asyncio.ensure_future(run_command("sleep 60 & echo $$; sleep 60", tmp_path, on_output=on_output))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await group_gone(int("".join(output)))


async def test_output_streams_as_it_comes(tmp_path: Path) -> None:
    pieces: list[str] = []

    def on_output(piece: str) -> None:
        pieces.append(piece)
        (tmp_path / "go").touch()

    # The command prints "two" only once the test has seen "one": the pieces cannot arrive together.
    await run_command("echo one; while [ ! -e go ]; do sleep 0.01; done; echo two", tmp_path,
                      on_output=on_output)
    assert pieces == ["one\n", "two\n"]


def test_secrets_are_dropped_from_the_environment() -> None:
    env = clean_environment(
        {"PATH": "/bin", "HOME": "/h", "GITHUB_TOKEN": "x", "OPENAI_API_KEY": "x",
         "AWS_SECRET_ACCESS_KEY": "x", "SSH_AUTH_SOCK": "/s", "DB_PASSWORD": "x", "LANG": "C"}
    )
    assert {name: value for name, value in env.items() if not name.startswith("GIT_")} == {
        "PATH": "/bin", "HOME": "/h", "LANG": "C"}


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


@pytest.mark.parametrize("turns", [1, 2, 3, 5, 8])
async def test_a_stop_while_the_command_starts_leaves_nothing_running(
        tmp_path: Path, turns: int) -> None:
    """Stop may come while the process is being started, before the run has its handle: the
    whole group must still go, whatever it started by then."""
    folder = tmp_path / f"run-{turns}"
    folder.mkdir()
    # Commands that never end on their own: a Stop that waited for them would never return.
    task = asyncio.ensure_future(run_command("sleep 1000000 & sleep 1000000", folder))
    for _ in range(turns):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        # A guard against hanging the suite, not a timing: the stop takes milliseconds.
        await asyncio.wait_for(asyncio.shield(task), 120)
    assert await eventually(lambda: not processes_in(folder))

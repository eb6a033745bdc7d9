"""The OS sandbox around approved commands, tried the way an attacker would: writes outside the
skill and the workspace, the network, processes that try to outlive the run, links out of the
skill's folder, the home folder's secrets and other programs' /tmp. Each would get through
without the sandbox."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.agent.run import run_command
from studio.agent.sandbox import Sandbox, bwrap_argv, detect, sandbox_exec_profile
from tests.agent.processes import sleep_token, sleepers
from tests.waiting import eventually

SUPPORT = detect()
needs_sandbox = pytest.mark.skipif(
    SUPPORT.kind != "bwrap", reason=f"no bubblewrap sandbox on this machine: {SUPPORT.problem}"
)


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder outside /tmp (which the sandbox replaces), so it is visible there, read-only."""
    folder = Path(tempfile.mkdtemp(prefix="studio-sandbox-", dir="/var/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    folder = tmp_path / "project" / "skills" / "demo"
    folder.mkdir(parents=True)
    return folder


async def wait_until_gone(token: str) -> list[int]:
    """The processes named `token` still alive after giving the kernel a while to reap."""
    await eventually(lambda: not sleepers(token))
    return sleepers(token)


@needs_sandbox
@pytest.mark.parametrize("where", ["var_tmp", "tmp"])
async def test_writes_land_only_in_the_skill_and_the_workspace(
    skill: Path, outside: Path, tmp_path: Path, where: str
) -> None:
    workspace = skill.parents[1]
    target = outside if where == "var_tmp" else tmp_path / "elsewhere"
    target.mkdir(exist_ok=True)
    result = await run_command(
        f"echo a > in-skill; echo b > {workspace}/in-workspace; echo c > {target}/escaped",
        skill, sandbox=Sandbox.for_run(skill, workspace),
    )  # fmt: skip
    assert (skill / "in-skill").read_text() == "a\n"
    assert (workspace / "in-workspace").read_text() == "b\n"
    assert not (target / "escaped").exists()
    assert result.exit_code != 0 and "escaped" in result.output


@needs_sandbox
async def test_a_link_in_the_skill_folder_gives_no_write_access_outside(
    skill: Path, outside: Path
) -> None:
    (outside / "victim.txt").write_text("original")
    (skill / "out").symlink_to(outside)
    (skill / "victim.txt").symlink_to(outside / "victim.txt")
    result = await run_command(
        "echo x > out/new.txt; echo x >> victim.txt; rm -f out/victim.txt; ln -sf / out/root",
        skill, sandbox=Sandbox.for_run(skill),
    )  # fmt: skip
    assert sorted(p.name for p in outside.iterdir()) == ["victim.txt"], result.output
    assert (outside / "victim.txt").read_text() == "original"


@needs_sandbox
async def test_the_network_is_cut_off_unless_granted(skill: Path) -> None:
    connected = 0

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connected
        connected += 1
        writer.close()

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    # Even loopback is out of reach in a network namespace of its own.
    command = f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected"
    try:
        denied = await run_command(command, skill, sandbox=Sandbox.for_run(skill))
        assert "connected" not in denied.output and denied.exit_code != 0
        assert connected == 0
        granted = await run_command(command, skill, sandbox=Sandbox.for_run(skill, network=True))
        assert granted.output == "connected\n"
    finally:
        server.close()
        await server.wait_closed()


@needs_sandbox
async def test_no_process_outlives_the_run(skill: Path) -> None:
    token = sleep_token()
    # Three escapes: a new session, a double fork and nohup; each writes a file once it runs,
    # and the command waits for all three before it ends.
    command = (
        f"setsid sh -c 'echo > started-setsid; exec sleep 302.{token}1' &\n"
        f"( (sh -c 'echo > started-fork; exec sleep 302.{token}2' &) & )\n"
        f"nohup sh -c 'echo > started-nohup; exec sleep 302.{token}3' >/dev/null 2>&1 &\n"
        "while [ ! -e started-setsid ] || [ ! -e started-fork ] || [ ! -e started-nohup ]; do "
        "sleep 0.01; done; echo all started"
    )
    result = await run_command(command, skill, timeout=30, sandbox=Sandbox.for_run(skill))
    assert result.output == "all started\n"
    assert await wait_until_gone(token) == []


@needs_sandbox
async def test_the_home_folder_is_hidden_but_a_skill_inside_it_is_not(outside: Path) -> None:
    home = outside / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SECRET-KEY")
    skill = home / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("the skill")
    result = await run_command(
        f"cat SKILL.md; echo; cat {home}/.ssh/id_rsa; echo \"listing: $(ls -A {home})\"; "
        "echo made > out.txt",
        skill, sandbox=Sandbox.for_run(skill, home=home),
    )  # fmt: skip
    assert "the skill" in result.output
    assert "SECRET-KEY" not in result.output
    assert "listing: skills\n" in result.output
    assert (skill / "out.txt").read_text() == "made\n"


@needs_sandbox
async def test_programs_installed_under_the_home_folder_still_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    pyenv_bin = home / ".pyenv" / "shims"
    cargo_bin = home / ".cargo" / "bin"
    for folder in (pyenv_bin, cargo_bin, home / ".pyenv" / "versions"):
        folder.mkdir(parents=True)
    (home / ".pyenv" / "versions" / "v").write_text("3.11")
    # Like pyenv's shims: the program reads its toolchain's root beside the PATH entry.
    (pyenv_bin / "pytool").write_text(f"#!/bin/sh\ncat {home}/.pyenv/versions/v\n")
    (cargo_bin / "rstool").write_text("#!/bin/sh\necho rust tool\n")
    for tool in (pyenv_bin / "pytool", cargo_bin / "rstool"):
        tool.chmod(0o755)
    (home / ".cargo" / "credentials.toml").write_text("TOKEN-CARGO")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("SECRET-KEY")
    monkeypatch.setenv("PATH", f"{pyenv_bin}:{cargo_bin}:{os.environ['PATH']}")
    skill = tmp_path / "skill"
    skill.mkdir()
    box = Sandbox.for_run(skill, home=home)
    assert [tool for tool in box.tools if tool.is_relative_to(home)] == [home / ".pyenv", cargo_bin]
    result = await run_command(
        f"pytool; rstool; cat {home}/.cargo/credentials.toml {home}/.ssh/id_rsa; "
        f"echo \"listing: $(ls -A {home} | tr '\\n' ' ')\"",
        skill, sandbox=box,
    )  # fmt: skip
    assert "3.11" in result.output and "rust tool" in result.output
    assert "TOKEN-CARGO" not in result.output and "SECRET-KEY" not in result.output
    assert "listing: .cargo .pyenv \n" in result.output


@needs_sandbox
async def test_tmp_is_private(skill: Path, tmp_path: Path) -> None:
    token = secrets.token_hex(6)
    (tmp_path / f"theirs-{token}").write_text("someone else's")
    leaked = Path(f"/tmp/studio-sandbox-{token}")
    try:
        result = await run_command(
            f"ls /tmp; cat {tmp_path}/theirs-{token}; echo ours > {leaked} && echo wrote",
            skill, sandbox=Sandbox.for_run(skill),
        )  # fmt: skip
        assert "someone else's" not in result.output
        assert "wrote" in result.output
        assert not leaked.exists()
    finally:
        leaked.unlink(missing_ok=True)


@needs_sandbox
@pytest.mark.skipif(not os.access("/run", os.W_OK), reason="a socket in /run needs root here")
async def test_sockets_in_run_are_out_of_reach(skill: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="studio-sandbox-", dir="/run"))
    accepted = asyncio.Event()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set()
        writer.close()

    server = await asyncio.start_unix_server(accept, str(folder / "daemon.sock"))
    try:
        result = await run_command(
            f"python3 -c \"import socket; socket.socket(socket.AF_UNIX).connect('{folder}/daemon.sock')\"",
            skill, sandbox=Sandbox.for_run(skill),
        )  # fmt: skip
        assert result.exit_code != 0 and not accepted.is_set()
    finally:
        server.close()
        await server.wait_closed()
        shutil.rmtree(folder, ignore_errors=True)


@needs_sandbox
async def test_a_timeout_ends_the_whole_sandbox(skill: Path) -> None:
    token = sleep_token()
    command = (f"setsid sh -c 'echo > started; exec sleep 302.{token}' & "
               "while [ ! -e started ]; do sleep 0.01; done; echo up; sleep 300")
    # Generous, so the escape is up before the deadline even on a loaded machine.
    result = await run_command(command, skill, timeout=8, sandbox=Sandbox.for_run(skill))
    assert result.timed_out and result.output == "up\n"
    assert await wait_until_gone(token) == []


@needs_sandbox
async def test_cancelling_ends_the_whole_sandbox(skill: Path) -> None:
    token = sleep_token()
    command = f"setsid sh -c 'echo > started; exec sleep 302.{token}' & sleep 300"
    task = asyncio.ensure_future(run_command(command, skill, sandbox=Sandbox.for_run(skill)))
    assert await eventually(lambda: (skill / "started").exists() and bool(sleepers(token)))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_until_gone(token) == []


def test_the_description_says_what_is_allowed(tmp_path: Path) -> None:
    skill = tmp_path / "ws" / "skills" / "demo"
    for folder in (skill, tmp_path / "home", tmp_path / "a", tmp_path / "b"):
        folder.mkdir(parents=True)
    box = Sandbox.for_run(skill, tmp_path / "ws", home=tmp_path / "home")
    assert box.writable == (tmp_path / "ws",)
    assert box.describe() == (f"writes only in {tmp_path / 'ws'}; no network; private /tmp; "
                              "home folder hidden")
    apart = Sandbox.for_run(tmp_path / "a", tmp_path / "b", network=True)
    assert apart.describe() == (f"writes only in {tmp_path / 'a'} and {tmp_path / 'b'}; "
                                "network allowed; private /tmp")


def test_a_home_that_holds_the_workspace_or_is_the_root_is_not_hidden(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "sub").mkdir()
    assert Sandbox.for_run(tmp_path / "ws", home=tmp_path).hidden_home == tmp_path
    assert Sandbox.for_run(tmp_path, home=tmp_path / "sub").hidden_home is None
    assert Sandbox.for_run(tmp_path, home=Path("/")).hidden_home is None


def test_missing_folders_are_left_out_rather_than_failing_the_bind(tmp_path: Path) -> None:
    box = Sandbox.for_run(tmp_path, tmp_path.parent / "no-such-workspace",
                          home=tmp_path / "no-such-home")
    assert box.writable == (tmp_path,) and box.hidden_home is None
    argv = bwrap_argv(box, tmp_path, seccomp_fd=3)
    private = {argv[at + 1] for at, arg in enumerate(argv) if arg == "--tmpfs"}
    assert {"/dev/shm", "/tmp", "/var/tmp", "/run"} <= private
    assert str(tmp_path.parent / "no-such-home") not in private


def test_a_writable_tmp_is_not_called_private(tmp_path: Path) -> None:
    assert "private /tmp" not in Sandbox.for_run(Path("/tmp")).describe()


def test_bwrap_mounts_the_writable_folders_after_hiding_tmp_and_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    skill = home / "skill"
    skill.mkdir(parents=True)
    argv = bwrap_argv(Sandbox.for_run(skill, home=home), skill, seccomp_fd=3)
    assert argv[:4] == ["bwrap", "--ro-bind", "/usr", "/usr"] and "/" not in argv[:argv.index("--remount-ro")]
    tmp_at = argv.index("/tmp")
    home_at = argv.index(str(home))
    bind_at = argv.index("--bind")
    assert argv[tmp_at - 1] == argv[home_at - 1] == "--tmpfs"
    assert tmp_at < home_at < bind_at and argv[bind_at + 1:bind_at + 3] == [str(skill)] * 2
    for flag in ("--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[-1] == "--"
    granted = bwrap_argv(Sandbox.for_run(skill, network=True), skill, seccomp_fd=3)
    assert "--unshare-net" not in granted


def test_the_macos_profile_allows_writes_only_in_the_folders(tmp_path: Path) -> None:
    home = tmp_path / "home"
    skill = home / "my \"odd\" skill"
    skill.mkdir(parents=True)
    profile = sandbox_exec_profile(Sandbox.for_run(skill, home=home))
    lines = profile.splitlines()
    assert lines[:2] == ["(version 1)", "(deny default)"]
    assert f'(deny file-read* (subpath "{home}"))' in lines
    assert f'(allow file-read* (subpath "{home}/my \\"odd\\" skill"))' in lines
    writes = profile[profile.index("(allow file-write*"):]
    assert f'(subpath "{home}/my \\"odd\\" skill")' in writes
    assert '(subpath (param "TMPDIR"))' in writes
    assert "network" not in profile
    assert profile.count("(") == profile.count(")")
    opened = sandbox_exec_profile(Sandbox.for_run(skill, network=True))
    assert "(allow network*)" in opened.splitlines()


def test_a_read_only_folder_inside_a_writable_one_is_bound_back_read_only(tmp_path: Path) -> None:
    copies = tmp_path / "cache" / "unzipped"
    skill = copies / "abc" / "demo"
    skill.mkdir(parents=True)
    box = Sandbox.for_run(skill, tmp_path).with_read_only(copies)
    assert box.writable == (tmp_path,) and box.guarded == (copies,)
    assert box.describe() == (f"writes only in {tmp_path}; no network; private /tmp; "
                              f"{copies} read-only")
    argv = bwrap_argv(box, skill, seccomp_fd=3)
    ro_at = len(argv) - 1 - argv[::-1].index("--ro-bind")
    assert argv.index("--bind") < ro_at and argv[ro_at + 1:ro_at + 3] == [str(copies)] * 2
    profile = sandbox_exec_profile(box).splitlines()
    assert profile[-1] == f'(deny file-write* (subpath "{copies}"))'
    # Outside every writable folder it is read-only anyway: nothing more to say or bind.
    apart = Sandbox.for_run(skill).with_read_only(copies)
    assert apart.writable == () and apart.guarded == ()
    assert apart.describe().startswith("writes only in no folder;")


@needs_sandbox
async def test_nothing_is_written_in_a_read_only_folder_of_the_workspace(tmp_path: Path) -> None:
    guarded = tmp_path / "copies"
    guarded.mkdir()
    box = Sandbox.for_run(tmp_path).with_read_only(guarded)
    result = await run_command("touch copies/x; touch y", tmp_path, timeout=30,
                               output_cap=10_000, sandbox=box)
    assert "Read-only file system" in result.output and result.exit_code == 0
    assert not (guarded / "x").exists() and (tmp_path / "y").exists()


def test_a_read_only_folder_inside_the_hidden_home_stays_readable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    copies = home / ".cache" / "unzipped"
    skill = copies / "abc" / "demo"
    skill.mkdir(parents=True)
    box = Sandbox.for_run(skill, home=home).with_read_only(copies)
    assert box.writable == () and box.guarded == (copies,)
    argv = bwrap_argv(box, skill, seccomp_fd=3)
    assert argv.index(str(home)) < argv.index(str(copies))
    assert argv[argv.index(str(copies)) - 1] == "--ro-bind"
    profile = sandbox_exec_profile(box).splitlines()
    assert f'(allow file-read* (subpath "{copies}"))' in profile
    assert Sandbox.for_run(skill).with_read_only(tmp_path / "missing").read_only == ()


def test_other_processors_get_no_sandbox_and_are_told_why(monkeypatch: pytest.MonkeyPatch) -> None:
    import platform

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    support = detect.__wrapped__()
    assert support.kind is None
    assert support.problem == ("the sandbox's system-call filter is built for x86_64 only, and "
                               "this machine is aarch64")
    assert "every command is asked about" in support.notice()

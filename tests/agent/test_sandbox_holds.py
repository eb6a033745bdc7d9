"""The sandbox as a hostile script meets it, as root and as an ordinary user: no capabilities,
no mount, no namespace of its own, no change to a `.git`, no secret of the studio's, and the
limits on processes, memory, file size, CPU, open files and the private /tmp hold.

Each probe runs twice: as the user running the tests (root here, as in CI) and, when that is
root, as the unprivileged "nobody" (65534) through `setpriv`, which starts bubblewrap the way an
ordinary user's studio does (an unprivileged user namespace)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from studio.agent.cgroup import pids_parent
from studio.agent.mounts import Interpreter
from studio.agent.run import clean_environment, run_command
from studio.agent.sandbox import Limits, Sandbox, bwrap_argv, seccomp_memfd
from studio.agent.seccomp import DENIED
from tests.agent.sandboxing import NOBODY, SETPRIV, SUPPORT, SYSTEM_PYTHON, as_owner, probe

pytestmark = pytest.mark.skipif(
    SUPPORT.kind != "bwrap", reason=f"no bubblewrap sandbox on this machine: {SUPPORT.problem}"
)


async def test_no_capabilities_and_no_mount(place: Path, user: str) -> None:
    workspace = place / "ws"
    command = (
        "grep CapEff /proc/self/status; "
        "mount -o remount,rw / 2>/dev/null && echo REMOUNTED; "
        "mount -o remount,rw,bind / / 2>/dev/null && echo REBOUND; "
        "umount -l /tmp 2>/dev/null && echo UNMOUNTED; "
        "mount -t tmpfs none /mnt 2>/dev/null && echo MOUNTED; "
        f"echo x > {place}/escaped 2>/dev/null; "
        "echo x > /etc/escaped 2>/dev/null && echo WROTE-ETC; "
        "echo inside > ok && echo wrote-workspace"
    )
    result = await probe(command, workspace, Sandbox.for_run(workspace), user)
    assert "CapEff:\t0000000000000000" in result.output, result.output
    for escape in ("REMOUNTED", "REBOUND", "UNMOUNTED", "MOUNTED", "WROTE"):
        assert escape not in result.output
    assert "wrote-workspace" in result.output
    assert not (place / "escaped").exists() and not Path("/etc/escaped").exists()


async def test_the_system_call_filter_refuses_what_reaches_past_the_sandbox(
    place: Path, user: str
) -> None:
    workspace = place / "ws"
    names = ["mount", "umount2", "ptrace", "keyctl", "add_key", "request_key", "bpf", "setns",
             "unshare", "kexec_load", "init_module", "finit_module", "pivot_root", "open_tree",
             "fsopen", "io_uring_setup", "perf_event_open", "userfaultfd"]
    numbers = {name: DENIED[name] for name in names}
    # Arguments that would get another answer than EPERM without the filter (EINVAL, EFAULT,
    # ENOSYS...), and clone with a new user namespace, which an unprivileged user may make.
    script = (
        "import ctypes, json\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        f"numbers = {json.dumps(numbers)}\n"
        "out = {}\n"
        "for name, nr in numbers.items():\n"
        "    ctypes.set_errno(0)\n"
        "    r = libc.syscall(nr, 0x10000000, 0, 0, 0, 0)\n"
        "    out[name] = (r, ctypes.get_errno())\n"
        "ctypes.set_errno(0)\n"
        "out['clone_newuser'] = (libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0), ctypes.get_errno())\n"
        "out['clone3'] = (libc.syscall(435, 0, 0), ctypes.get_errno())\n"
        "print(json.dumps(out))\n"
    )
    (workspace / "probe.py").write_text(script)
    as_owner(workspace, user)
    result = await probe("python3 probe.py; unshare -U true && echo UNSHARED",
                         workspace, Sandbox.for_run(workspace), user)
    answers = json.loads(result.output.splitlines()[0])
    for name in [*names, "clone_newuser"]:
        assert answers[name] == [-1, 1], (name, answers[name])  # EPERM
    assert answers["clone3"] == [-1, 38]  # ENOSYS: the C library falls back to clone
    assert "UNSHARED" not in result.output


async def test_the_network_namespace_is_not_the_hosts(place: Path, user: str) -> None:
    workspace = place / "ws"
    result = await probe("readlink /proc/self/ns/net; cat /proc/net/dev | tail -n +3 | "
                         "cut -d: -f1 | tr -d ' '", workspace, Sandbox.for_run(workspace), user)
    namespace, *interfaces = result.output.split()
    assert namespace != os.readlink("/proc/self/ns/net")
    assert interfaces == ["lo"]


async def test_git_folders_are_read_only_and_git_runs_no_repository_command(
    place: Path, user: str
) -> None:
    workspace = place / "ws"
    nested = workspace / "skills" / "demo"
    nested.mkdir(parents=True)
    for repo in (workspace, nested):
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    # A skill that ships its own repository with an fsmonitor and a hook: git inside must not
    # run them.
    marker = workspace / "fsmonitor-ran"
    subprocess.run(["git", "-C", str(nested), "config", "core.fsmonitor",
                    f"touch {marker}; false"], check=True)
    (nested / ".git" / "hooks" / "post-checkout").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (nested / ".git" / "hooks" / "post-checkout").chmod(0o755)
    as_owner(workspace, user)
    before = {repo: (repo / ".git" / "config").read_text() for repo in (workspace, nested)}
    command = (
        "echo 'touch /tmp/x' > .git/hooks/pre-commit 2>/dev/null && echo PLANTED; "
        "git config core.fsmonitor 'touch owned' 2>/dev/null && echo CONFIGURED; "
        "echo x > skills/demo/.git/hooks/pre-commit 2>/dev/null && echo PLANTED-NESTED; "
        "mv .git .git-old 2>/dev/null && echo MOVED; "
        "cd skills/demo && git status --short >/dev/null 2>&1; git checkout -q -b x 2>/dev/null; "
        "echo done"
    )
    box = Sandbox.for_run(workspace)
    assert set(box.git) == {workspace / ".git", nested / ".git"}
    result = await probe(command, workspace, box, user)
    assert "done" in result.output
    for escape in ("PLANTED", "CONFIGURED", "MOVED"):
        assert escape not in result.output
    assert not (workspace / ".git" / "hooks" / "pre-commit").exists()
    assert not (nested / ".git" / "hooks" / "pre-commit").exists()
    assert {repo: (repo / ".git" / "config").read_text() for repo in before} == before
    assert not marker.exists()


def test_every_git_gets_config_that_runs_nothing() -> None:
    env = clean_environment({"PATH": "/bin"})
    pairs = {env[f"GIT_CONFIG_KEY_{n}"]: env[f"GIT_CONFIG_VALUE_{n}"]
             for n in range(int(env["GIT_CONFIG_COUNT"]))}
    assert pairs == {"core.fsmonitor": "false", "core.hooksPath": "/dev/null", "core.pager": "cat"}
    assert env["GIT_CONFIG_NOSYSTEM"] == "1" and env["GIT_CONFIG_GLOBAL"] == "/dev/null"


SECRETS = ("DATABASE_URL", "MYSQL_PWD", "GH_PAT", "OPENAI_KEY", "SENTRY_DSN", "SLACK_WEBHOOK_URL")


async def test_only_allowed_and_granted_names_reach_the_command(
    place: Path, user: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = place / "ws"
    for name in SECRETS:
        monkeypatch.setenv(name, f"secret-{name.lower()}")
    monkeypatch.setenv("LC_TIME", "C")
    monkeypatch.setenv("MY_TOOL_HOME", "granted-value")
    result = await probe("env", workspace, Sandbox.for_run(workspace), user,
                         allow_env=("MY_TOOL_HOME",))
    for name in SECRETS:
        assert f"secret-{name.lower()}" not in result.output, name
        assert f"{name}=" not in result.output
    assert "LC_TIME=C" in result.output and "MY_TOOL_HOME=granted-value" in result.output
    assert "PATH=" in result.output


async def test_a_fork_storm_is_capped(place: Path, user: str) -> None:
    if user == "root" and os.getuid() == 0 and pids_parent() is None:
        pytest.skip("the kernel never counts uid 0's processes against RLIMIT_NPROC, and this "
                    "machine offers root no pids cgroup to cap them with")
    workspace = place / "ws"
    # Tries 500 children that wait; counts those the kernel let start, then ends them.
    (workspace / "storm.py").write_text(
        "import os, signal\n"
        "children = []\n"
        "for _ in range(500):\n"
        "    try:\n"
        "        pid = os.fork()\n"
        "    except OSError:\n"
        "        break\n"
        "    if pid == 0:\n"
        "        signal.pause()\n"
        "        os._exit(0)\n"
        "    children.append(pid)\n"
        "print('started', len(children), flush=True)\n"
        "for pid in children:\n"
        "    os.kill(pid, signal.SIGKILL)\n"
        "    os.waitpid(pid, 0)\n"
    )
    as_owner(workspace, user)
    box = Sandbox.for_run(workspace, limits=Limits(processes=40))
    result = await probe("python3 storm.py", workspace, box, user)
    started = int(result.output.split("started ")[1].split()[0])
    assert 0 < started < 40, result.output
    if user == "root":
        parent = pids_parent()
        assert parent is not None
        assert not [group for group in parent.glob(f"studio-run-{os.getpid()}-*")]


async def test_memory_file_size_cpu_and_open_files_are_capped(place: Path, user: str) -> None:
    workspace = place / "ws"
    (workspace / "hog.py").write_text(
        "import sys\n"
        "what = sys.argv[1]\n"
        "if what == 'memory':\n"
        "    try:\n"
        "        block = bytearray(1024 * 1024 * 1024)\n"
        "        print('GOT MEMORY')\n"
        "    except MemoryError:\n"
        "        print('memory refused')\n"
        "elif what == 'files':\n"
        "    handles = []\n"
        "    try:\n"
        "        for _ in range(200):\n"
        "            handles.append(open('/dev/null'))\n"
        "        print('OPENED ALL')\n"
        "    except OSError:\n"
        "        print('files refused at', len(handles))\n"
        "else:\n"
        "    while True:\n"
        "        pass\n"
    )
    as_owner(workspace, user)
    limits = Limits(memory_mb=256, file_size_mb=1, cpu_seconds=1, open_files=64)
    box = Sandbox.for_run(workspace, limits=limits)
    command = ("python3 hog.py memory; python3 hog.py files; "
               "head -c 3000000 /dev/zero > big 2>/dev/null; echo size $(stat -c %s big); "
               "python3 hog.py cpu; echo cpu-exit $?")
    result = await probe(command, workspace, box, user)
    assert "memory refused" in result.output and "GOT MEMORY" not in result.output
    assert "files refused at" in result.output and "OPENED ALL" not in result.output
    assert "size 1048576" in result.output
    # Killed at its CPU limit (SIGKILL or SIGXCPU), not ended by the run's timeout.
    assert "cpu-exit 137" in result.output or "cpu-exit 152" in result.output, result.output


async def test_the_private_tmp_and_shm_have_a_size(place: Path, user: str) -> None:
    workspace = place / "ws"
    box = Sandbox.for_run(workspace, limits=Limits(tmp_mb=4, file_size_mb=0))
    command = ("head -c 8000000 /dev/zero > /tmp/fill 2>/dev/null; echo tmp $(stat -c %s /tmp/fill); "
               "head -c 8000000 /dev/zero > /dev/shm/fill 2>/dev/null; "
               "echo shm $(stat -c %s /dev/shm/fill)")
    result = await probe(command, workspace, box, user)
    sizes = dict(line.split() for line in result.output.splitlines())
    assert int(sizes["tmp"]) <= 4 * 1024 * 1024 and int(sizes["shm"]) <= 4 * 1024 * 1024


def test_the_launcher_is_the_base_of_the_studios_python_by_default(tmp_path: Path) -> None:
    argv = bwrap_argv(Sandbox.for_run(tmp_path), tmp_path, seccomp_fd=3, uid=0)
    assert argv[argv.index("--uid") + 1] == str(NOBODY)
    assert argv[argv.index("--seccomp") + 1] == "3"
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    launcher = argv[argv.index("--") + 1:]
    assert launcher[0] == Interpreter.running().program and launcher[-1] == "--"
    assert bwrap_argv(Sandbox.for_run(tmp_path), tmp_path, seccomp_fd=3, uid=1000)[
        argv.index("--uid") + 1] == "1000"


async def test_the_network_by_host_lets_through_only_the_granted_hosts(tmp_path: Path) -> None:
    requests: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        requests.append(await reader.readuntil(b"\r\n\r\n"))
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    heard: list[tuple[str, int, bool]] = []
    fetch = ("python3 -c \"import sys, urllib.request as u; "
             "print(u.urlopen(sys.argv[1], timeout=30).read().decode())\" {url} 2>&1 | tail -1")
    # Plain HTTP to the granted host, HTTPS-style CONNECT to it, and both to one not granted
    # (localhost reaches the same server: only the grant tells them apart).
    command = "; ".join([
        fetch.format(url=f"http://127.0.0.1:{port}/plain"),
        f"curl -s -p -x \"$HTTP_PROXY\" http://127.0.0.1:{port}/tunnel; echo",
        fetch.format(url=f"http://localhost:{port}/refused"),
        f"curl -s -p -x \"$HTTP_PROXY\" -o /dev/null -w 'tunnel %{{http_connect}}' "
        f"http://localhost:{port}/refused; echo",
        f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo DIRECT",
    ])
    try:
        box = Sandbox.for_run(tmp_path).with_hosts(["127.0.0.1"])
        assert "network only to 127.0.0.1 through the studio's proxy" in box.describe()
        result = await run_command(command, tmp_path, timeout=60, sandbox=box,
                                   on_connection=lambda *c: heard.append(c))
    finally:
        server.close()
        await server.wait_closed()
    lines = result.output.splitlines()
    assert lines[0] == "hello" and lines[1] == "hello", result.output
    assert "403" in lines[2] and lines[3] == "tunnel 403"
    assert "DIRECT" not in result.output
    assert [request.split(b"\r\n")[0] for request in requests] == [
        b"GET /plain HTTP/1.1", b"GET /tunnel HTTP/1.1"]
    assert heard == [("127.0.0.1", port, True), ("127.0.0.1", port, True),
                     ("localhost", port, False), ("localhost", port, False)]


def test_host_grants_match_names_subdomains_and_any() -> None:
    from studio.agent.netproxy import host_allowed

    assert host_allowed("PyPI.org.", ["pypi.org"])
    assert host_allowed("files.pythonhosted.org", ["*.pythonhosted.org"])
    assert not host_allowed("pythonhosted.org.evil.com", ["*.pythonhosted.org"])
    assert not host_allowed("evilpypi.org", ["pypi.org"])
    assert host_allowed("anything.example", ["*"])
    assert not host_allowed("pypi.org", [])


@pytest.mark.skipif(os.getuid() != 0 or SETPRIV is None or not os.access(SYSTEM_PYTHON, os.X_OK),
                    reason="the run as an ordinary user is started from root through setpriv")
@pytest.mark.parametrize("user", ["user"])
async def test_the_network_by_host_holds_for_an_ordinary_user_too(place: Path, user: str) -> None:
    from studio.agent.netproxy import INSIDE_SOCKET, HostProxy

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    heard: list[tuple[str, int, bool]] = []
    workspace = place / "ws"
    box = replace(Sandbox.for_run(workspace), tools=()).with_hosts(["127.0.0.1"])
    command = (f"curl -s -w ' %{{http_code}}' http://127.0.0.1:{port}/; echo; "
               f"curl -s -o /dev/null -w '%{{http_code}}' http://localhost:{port}/")
    try:
        async with HostProxy(box.hosts, lambda *c: heard.append(c)) as proxy:
            # The studio's user owns the proxy; here "nobody" must reach it.
            proxy.socket_path.parent.chmod(0o755)
            proxy.socket_path.chmod(0o777)
            fd = seccomp_memfd()
            try:
                argv = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                        *bwrap_argv(box, workspace, SUPPORT.program, seccomp_fd=fd,
                                    python=SYSTEM_PYTHON, uid=NOBODY,
                                    proxy_socket=proxy.socket_path), "bash", "-c", command]
                env = {**clean_environment(), "STUDIO_PROXY_SOCKET": INSIDE_SOCKET}
                process = await asyncio.create_subprocess_exec(
                    *argv, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, env=env, pass_fds=(fd,), start_new_session=True)
                output, _ = await asyncio.wait_for(process.communicate(), 60)
            finally:
                os.close(fd)
    finally:
        server.close()
        await server.wait_closed()
    assert output.decode().splitlines() == ["ok 200", "403"]
    assert heard == [("127.0.0.1", port, True), ("localhost", port, False)]


def test_groups_left_by_a_process_that_is_gone_are_swept(tmp_path: Path) -> None:
    from studio.agent.cgroup import sweep

    gone = tmp_path / "studio-run-999999999-3"
    mine = tmp_path / f"studio-run-{os.getpid()}-1"
    other = tmp_path / "someone-else"
    for folder in (gone, mine, other):
        folder.mkdir()
    assert sweep(tmp_path) == [gone]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name])

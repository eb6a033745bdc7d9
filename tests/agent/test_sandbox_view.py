"""What a sandboxed command sees of the file system: the studio's own Python wherever it is
installed (a virtual environment or an interpreter under /tmp, a home folder under /tmp), the
system's folders for the commands people run, and nothing else of the host: no socket in
/var/tmp or /var/lib, no /etc/shadow. As root and as an ordinary user."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import studio
from studio.agent.mounts import Interpreter, etc_hidden, toolchain_folders
from studio.agent.sandbox import Sandbox, bwrap_argv, seccomp_memfd
from tests.agent.sandboxing import SUPPORT, as_owner, probe

pytestmark = pytest.mark.skipif(
    SUPPORT.kind != "bwrap", reason=f"no bubblewrap sandbox on this machine: {SUPPORT.problem}"
)
CHECKOUT = Path(studio.__file__).resolve().parent.parent


@pytest.fixture
def in_tmp() -> Iterator[Path]:
    """A folder in /tmp itself, which the sandbox replaces with a private one."""
    folder = Path(tempfile.mkdtemp(prefix="studio-view-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# Run inside the virtual environment: the sandbox as the studio installed there builds it.
IN_VENV = """
import asyncio, json, sys
from pathlib import Path
from studio.agent.run import run_command
from studio.agent.sandbox import Sandbox, detect
workspace, home = Path(sys.argv[1]), Path(sys.argv[2])
support = detect()
result = asyncio.run(run_command(sys.argv[3], workspace, sandbox=Sandbox.for_run(workspace, home=home),
                                 support=support, timeout=60))
print(json.dumps([support.kind, support.problem, result.exit_code, result.output]))
"""


@pytest.mark.parametrize("home_in", ["tmp", "var_tmp"])
def test_a_studio_installed_in_a_venv_under_tmp_runs_commands_sandboxed(
    in_tmp: Path, home_in: str
) -> None:
    venv = in_tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    site = Path(subprocess.run(
        [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    (site / "studio-checkout.pth").write_text(f"{CHECKOUT}\n")
    workspace = in_tmp / "ws"
    workspace.mkdir()
    # A home folder under a place the sandbox replaces too (/tmp, or /var/tmp).
    home = in_tmp / "home" if home_in == "tmp" else Path(tempfile.mkdtemp(dir="/var/tmp"))
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SECRET-KEY")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env["HOME"] = str(home)
    try:
        done = subprocess.run(
            [venv / "bin" / "python", "-I", "-c", IN_VENV, str(workspace), str(home),
             f"echo inside > made; python3 -c 'print(6 * 7)'; cat {home}/.ssh/id_rsa; "
             f"ls {venv} && echo VENV-SHOWN; echo done"],
            cwd=in_tmp, env=env, capture_output=True, text=True, timeout=120, check=False)
    finally:
        if home_in != "tmp":
            shutil.rmtree(home, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    kind, problem, code, output = json.loads(done.stdout)
    assert (kind, problem) == ("bwrap", ""), problem
    assert code == 0 and "42\n" in output and output.endswith("done\n"), output
    assert "SECRET-KEY" not in output and "VENV-SHOWN" not in output
    assert (workspace / "made").read_text() == "inside\n"


def _python_under(folder: Path) -> str:
    """A copy of the system's Python laid out under `folder` (PREFIX/bin, PREFIX/lib), as
    a relocatable build (python-build-standalone, conda) unpacked in /tmp would be."""
    version = sysconfig.get_python_version()
    program = Path(os.path.realpath(f"/usr/bin/python{version}"))
    if not program.is_file() or not Path(f"/usr/lib/python{version}/os.py").is_file():
        pytest.skip(f"needs the system's python{version} in /usr")
    (folder / "bin").mkdir(parents=True)
    copy = folder / "bin" / program.name
    shutil.copy2(program, copy)
    shutil.copytree(f"/usr/lib/python{version}", folder / "lib" / f"python{version}",
                    ignore=shutil.ignore_patterns("__pycache__", "test", "idlelib", "tkinter",
                                                  "ensurepip", "lib2to3", "pydoc_data"),
                    copy_function=_link_or_copy)
    return str(copy)


def _link_or_copy(source: str, target: str) -> None:
    # Links share the system's files (never change their modes); all are readable by anyone.
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


async def test_an_interpreter_under_tmp_starts_the_sandbox(in_tmp: Path, user: str) -> None:
    python = _python_under(in_tmp / "python")
    interpreter = Interpreter.at(python)
    assert all(path.is_relative_to(in_tmp) for path in interpreter.hidden_needs())
    workspace = in_tmp / "ws"
    workspace.mkdir()
    as_owner(workspace, user)
    home = in_tmp / "home"
    home.mkdir()
    box = Sandbox.for_run(workspace, home=home)
    if user == "user" and os.getuid() == 0:
        output = (await probe("echo ran; ls /tmp", workspace, box, user, python=python)).output
    else:
        fd = seccomp_memfd()
        try:
            argv = [*bwrap_argv(box, workspace, SUPPORT.program, seccomp_fd=fd, python=python),
                    "bash", "-c", "echo ran; ls /tmp"]
            done = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True,
                                           pass_fds=(fd,), timeout=60, check=False)
        finally:
            os.close(fd)
        output = done.stdout + done.stderr
    assert output.startswith("ran\n"), output
    # The interpreter is bound at its own path, but nothing else of the host's /tmp shows.
    assert output.split()[1:] == [in_tmp.name]


@pytest.mark.parametrize("where", ["/var/tmp", "/var/lib", "/mnt"])
async def test_a_host_socket_outside_the_view_is_unreachable(
    place: Path, user: str, where: str
) -> None:
    if not os.access(where, os.W_OK):
        pytest.skip(f"making a socket in {where} needs its owner")
    folder = Path(tempfile.mkdtemp(prefix=f"studio-socket-{secrets.token_hex(3)}-", dir=where))
    folder.chmod(0o755)
    accepted = asyncio.Event()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set()
        writer.close()

    path = folder / "daemon.sock"
    server = await asyncio.start_unix_server(accept, str(path))
    path.chmod(0o777)
    workspace = place / "ws"
    try:
        result = await probe(
            f"python3 -c \"import socket; socket.socket(socket.AF_UNIX).connect('{path}')\" "
            "&& echo CONNECTED", workspace, Sandbox.for_run(workspace), user)
    finally:
        server.close()
        await server.wait_closed()
        shutil.rmtree(folder, ignore_errors=True)
    assert "CONNECTED" not in result.output and not accepted.is_set(), result.output


async def test_the_commands_people_run_still_work(place: Path, user: str) -> None:
    workspace = place / "ws"
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "notes.txt").write_text("b\na\nc\n")
    script = workspace / "tool.py"
    script.write_text("#!/usr/bin/env python3\nimport sys\nprint('script', sys.version_info[0])\n")
    script.chmod(0o755)
    as_owner(workspace, user)
    command = "; ".join([
        "ls notes.txt", "cat notes.txt | grep -c .", "python3 -c 'print(6 * 7)'",
        "sh -c 'echo from-sh'", "git status --short", "./tool.py",
        "awk 'END {print NR}' notes.txt", "sed -n 2p notes.txt", "sort notes.txt | head -1",
        "date +%Y >/dev/null && echo dated", "echo cpus $(nproc)",
    ])
    result = await probe(command, workspace, Sandbox.for_run(workspace), user)
    lines = result.output.splitlines()
    assert lines[:5] == ["notes.txt", "3", "42", "from-sh", "?? notes.txt"], result.output
    assert lines[5:-1] == ["?? tool.py", "script 3", "3", "a", "a", "dated"], result.output
    assert int(lines[-1].split()[1]) >= 1


async def test_certificates_are_readable_with_the_network_granted(place: Path, user: str) -> None:
    workspace = place / "ws"
    command = ("python3 -c \"import ssl; print(len(ssl.create_default_context()"
               ".get_ca_certs()) > 0 or len(ssl.create_default_context().cert_store_stats()))\"; "
               "ls /etc/ssl/certs | grep -c .; cat /etc/resolv.conf >/dev/null && echo resolver")
    result = await probe(command, workspace, Sandbox.for_run(workspace, network=True), user)
    lines = result.output.split()
    assert int(lines[1]) > 0 and lines[2] == "resolver", result.output


async def test_what_no_ordinary_user_may_read_in_etc_stays_hidden_as_root(
    place: Path, user: str
) -> None:
    workspace = place / "ws"
    result = await probe("cat /etc/shadow >/dev/null 2>&1 && echo SHADOW; "
                         "grep -c ^root: /etc/passwd; ls -A /etc/ssl/private 2>/dev/null | wc -l",
                         workspace, Sandbox.for_run(workspace), user)
    assert result.output.split() == ["1", "0"], result.output


def test_etc_hides_unreadable_files_and_anything_but_files_folders_and_links(
    tmp_path: Path,
) -> None:
    (tmp_path / "open").write_text("x")
    (tmp_path / "secret").write_text("x")
    (tmp_path / "secret").chmod(0o640)
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys").chmod(0o700)
    (tmp_path / "ssl").mkdir()
    (tmp_path / "ssl" / "cert.pem").write_text("x")
    (tmp_path / "link").symlink_to("/nowhere")
    os.mkfifo(tmp_path / "ssl" / "pipe")
    assert sorted(etc_hidden(tmp_path)) == sorted(
        [tmp_path / "secret", tmp_path / "keys", tmp_path / "ssl" / "pipe"])


def test_path_entries_show_their_prefix_but_never_a_top_level_folder_or_a_home(
    tmp_path: Path,
) -> None:
    venv = tmp_path / "venv" / "bin"
    lone = tmp_path / "tools"
    home = tmp_path / "home"
    for folder in (venv, lone, home / ".local" / "bin"):
        folder.mkdir(parents=True)
    found = toolchain_folders(home, [str(venv), str(lone), "/tmp", "/", "relative/bin",
                                     str(home / ".local" / "bin"), str(home), "/usr/bin"])
    assert found == (tmp_path / "venv", lone, home / ".local" / "bin")


async def test_git_works_in_a_worktree_but_a_shipped_git_file_shows_nothing(
    place: Path, user: str
) -> None:
    main = place / "main"
    subprocess.run(["git", "init", "-q", str(main)], check=True)
    subprocess.run(["git", "-C", str(main), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-q", "--allow-empty", "-m", "first"], check=True)
    workspace = place / "ws"
    subprocess.run(["git", "-C", str(main), "worktree", "add", "-q", str(workspace / "tree")],
                   check=True)
    # A skill that ships a `.git` file pointing at a folder it wants to read.
    secret = place / "secret"
    (secret / "keys").mkdir(parents=True)
    (secret / "keys" / "id").write_text("SECRET-KEY")
    skill = workspace / "skill"
    skill.mkdir()
    (skill / ".git").write_text(f"gitdir: {secret}\n")
    as_owner(place, user)
    box = Sandbox.for_run(workspace)
    result = await probe(f"cd tree && git log --format=%s -1; cat {secret}/keys/id", workspace,
                         box, user)
    assert result.output.splitlines()[0] == "first", result.output
    assert "SECRET-KEY" not in result.output


async def test_the_studios_own_folders_inside_a_workspace_are_hidden(
        place: Path, user: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # `studio chat` started in the home folder makes the home the workspace: a run that wrote
    # grants.yaml or settings.yaml there would approve its own next commands.
    workspace = place / "ws"
    config = workspace / ".config" / "studio"
    data = workspace / ".local" / "share" / "studio"
    config.mkdir(parents=True)
    data.mkdir(parents=True)
    (config / "grants.yaml").write_text("grants: []\n")
    (data / "audit.jsonl").write_text("{}\n")
    draft = data / "drafts" / "new-skill"
    draft.mkdir(parents=True)
    as_owner(workspace, user)
    monkeypatch.setenv("STUDIO_CONFIG_DIR", str(config))
    monkeypatch.setenv("STUDIO_DATA_DIR", str(data))
    command = ("ls -A .config/studio .local/share/studio; "
               "echo 'grants: [everything]' > .config/studio/grants.yaml; "
               "echo planted > .local/share/studio/audit.jsonl; echo ok")
    result = await probe(command, workspace, Sandbox.for_run(workspace), user)
    assert result.output.split() == [".config/studio:", ".local/share/studio:", "ok"], result.output
    assert (config / "grants.yaml").read_text() == "grants: []\n"
    assert (data / "audit.jsonl").read_text() == "{}\n"
    assert not (config / "settings.yaml").exists()
    written = await probe("echo drafted > SKILL.md && cat SKILL.md", draft,
                          Sandbox.for_run(workspace, draft), user)
    assert written.output.strip() == "drafted" and (draft / "SKILL.md").read_text() == "drafted\n"

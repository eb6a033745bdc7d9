"""The OS sandbox every approved command runs in: what it may write, whether it may use the
network, and the command line that enforces it (bubblewrap on Linux, `sandbox-exec` on macOS).

A `Sandbox` is a plain description; `bwrap_argv` and `sandbox_exec_profile` turn it into the
enforcing prefix. `detect()` says, once per process, whether this machine can enforce one: bwrap
must be installed and must actually start (user namespaces can be disabled), and where neither
works the studio says so and asks about every command instead.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from studio.agent import seccomp
from studio.agent.limits import Limits

DEFAULT_LIMITS = Limits()

SANDBOX_EXEC = "/usr/bin/sandbox-exec"
_PROBE_TIMEOUT = 10.0

# Folders under the home folder that hold a whole toolchain and no credentials: when a PATH entry
# lies inside one, the whole folder stays readable (pyenv's shims run `pyenv`, which reads its
# versions; nvm's node reads its lib). Elsewhere under home only the PATH entry itself is shown:
# ~/.cargo holds credentials.toml beside bin/, ~/.local holds keyrings beside bin/.
TOOLCHAIN_ROOTS = frozenset({
    ".pyenv", ".rbenv", ".nodenv", ".goenv", ".nvm", ".volta", ".asdf", ".rustup", ".sdkman",
    ".deno", ".bun", ".juliaup", "miniconda3", "anaconda3", "miniforge3", "mambaforge",
})


def toolchain_folders(home: Path, path_entries: Iterable[str], prefixes: Iterable[str]) -> tuple[Path, ...]:
    """The folders under `home` a command needs to read to find its programs: each PATH entry
    inside home (or its toolchain root), and the running Python's prefixes (a virtual
    environment or a pyenv version inside home)."""
    found: list[Path] = []
    for entry in (*path_entries, *prefixes):
        if not entry or not os.path.isabs(entry):
            continue
        folder = Path(entry).resolve()
        if folder == home or not folder.is_relative_to(home) or not folder.is_dir():
            continue
        root = home / folder.relative_to(home).parts[0]
        found.append(root if root.name in TOOLCHAIN_ROOTS else folder)
    unique = list(dict.fromkeys(found))
    return tuple(folder for folder in unique
                 if not any(folder != outer and folder.is_relative_to(outer) for outer in unique))


@dataclass(frozen=True, slots=True)
class Sandbox:
    """What a sandboxed command may do.

    Attributes:
        writable: the folders it may write in (the skill's folder and the workspace); everything
            else is read-only.
        home: the user's home folder, hidden except for the writable folders inside it.
        network: whether it may use the network (off unless the approval granted it).
        tools: folders inside the hidden home that stay readable, so programs installed there
            (pyenv, nvm, a virtual environment) still run; see `toolchain_folders`.
        read_only: folders that stay read-only even inside a writable one (the unpacked copies
            of zipped skills).
        limits: what one run may take of the machine (memory, processes, CPU, /tmp).
    """

    writable: tuple[Path, ...]
    home: Path | None = None
    network: bool = False
    tools: tuple[Path, ...] = ()
    read_only: tuple[Path, ...] = ()
    limits: Limits = DEFAULT_LIMITS

    @classmethod
    def for_run(cls, *folders: Path, home: Path | None = None, network: bool = False) -> Sandbox:
        """A sandbox writing in `folders` (resolved, so a link cannot redirect the bind), minus
        those already inside another one and those that do not exist (nothing to write in, and
        bwrap cannot bind them)."""
        resolved = list(dict.fromkeys(folder.resolve() for folder in folders if folder.is_dir()))
        kept = [folder for folder in resolved
                if not any(folder != outer and folder.is_relative_to(outer) for outer in resolved)]
        hidden = home.resolve() if home is not None else None
        tools: tuple[Path, ...] = ()
        if hidden is not None:
            tools = toolchain_folders(hidden, os.environ.get("PATH", "").split(os.pathsep),
                                      (sys.prefix, sys.base_prefix))
        return cls(tuple(kept), hidden, network, tools)

    def with_network(self, network: bool) -> Sandbox:
        return replace(self, network=network)

    def with_read_only(self, folder: Path) -> Sandbox:
        """The same sandbox with `folder`, and all inside it, read-only."""
        folder = folder.resolve()
        writable = tuple(place for place in self.writable if not place.is_relative_to(folder))
        # Like a writable folder, one that does not exist has nothing to protect and cannot be bound.
        read_only = (*self.read_only, folder) if folder.is_dir() else self.read_only
        return replace(self, writable=writable, read_only=read_only)

    @property
    def guarded(self) -> tuple[Path, ...]:
        """The read-only folders that need a mount of their own: those inside a writable folder
        (else they could be written) or inside the hidden home (else they could not be read);
        elsewhere the file system is read-only anyway."""
        home = self.hidden_home
        return tuple(folder for folder in self.read_only
                     if any(folder.is_relative_to(place) for place in self.writable)
                     or (home is not None and folder.is_relative_to(home)))

    def describe(self) -> str:
        """What it allows, in words: "writes only in A and B; no network; private /tmp; ..."."""
        places = " and ".join(str(folder) for folder in self.writable) or "no folder"
        parts = [f"writes only in {places}", "network allowed" if self.network else "no network"]
        if not any(Path("/tmp").is_relative_to(folder) for folder in self.writable):
            parts.append("private /tmp")
        if self.hidden_home is not None:
            parts.append("home folder hidden")
        parts += [f"{folder} read-only" for folder in self.guarded]
        if git_folders(self.writable):
            parts.append(".git read-only")
        parts.append(self.limits.describe())
        return "; ".join(parts)

    @property
    def hidden_home(self) -> Path | None:
        """The home folder to hide, unless hiding it would hide everything (home is `/`) or it
        sits inside a folder the command may write anyway."""
        home = self.home
        if home is None or home == Path(home.anchor) or not home.is_dir():
            return None
        if any(home.is_relative_to(folder) for folder in self.writable):
            return None
        return home


RESOLVER = Path("/run/systemd/resolve")


# The id a command run by root has inside its sandbox: nobody, with no capabilities.
NOBODY = 65534
_GIT_SKIPPED = frozenset({"node_modules", ".venv", "venv", "__pycache__", ".tox", "dist", "build"})
_GIT_WALK_LIMIT = 5000


def git_folders(writable: Iterable[Path]) -> list[Path]:
    """The `.git` folders in or below the writable folders (a skill may ship its own): a command
    that wrote in one could plant a hook or a `core.fsmonitor` the user's next `git status`, run
    outside any sandbox, would execute. The walk is bounded; what it finds is bound read-only."""
    found: list[Path] = []
    for top in writable:
        seen = 0
        for folder, names, _files in os.walk(top):
            seen += len(names)
            if ".git" in names:
                found.append(Path(folder) / ".git")
            names[:] = [n for n in names if n != ".git" and n not in _GIT_SKIPPED]
            if seen > _GIT_WALK_LIMIT:
                break
        parent = next((p for p in (top, *top.parents) if (p / ".git").is_dir()), None)
        if parent is not None and parent != top and (parent / ".git") not in found:
            # The workspace's own repository, when the writable folder is inside it.
            found.append(parent / ".git")
    return list(dict.fromkeys(found))


def bwrap_argv(sandbox: Sandbox, cwd: Path, bwrap: str = "bwrap", *,
               seccomp_fd: int | None = None, root: bool | None = None,
               hardened: bool = True) -> list[str]:
    """The bubblewrap prefix for a command run in `cwd`.

    Mount order matters: the read-only root first, then the private /tmp and /run and the hidden
    home, then the writable folders bound back on top (they may live under any of those), then
    the `.git` folders inside them bound read-only again. /run goes because a read-only mount
    still lets a program connect to the Unix sockets on it (the Docker daemon's, the session
    bus): that would be a way out with "no network".

    Hardened (unless the probe found this bubblewrap cannot), the command runs in a user namespace
    of its own with every capability dropped (as root: as `nobody`), so it cannot remount, enter
    the host's namespaces or use root's powers on the host, and under `seccomp_fd`'s filter."""
    root = os.geteuid() == 0 if root is None else root
    tmp = ["--size", str(sandbox.limits.tmp_mb * 1024 * 1024)] if hardened and sandbox.limits.tmp_mb else []
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *tmp, "--tmpfs",
            "/tmp", "--tmpfs", "/run"]
    if sandbox.network and RESOLVER.is_dir():
        # /etc/resolv.conf often points into it; without it a granted network has no names.
        argv += ["--ro-bind", str(RESOLVER), str(RESOLVER)]
    home = sandbox.hidden_home
    if home is not None and home != Path("/tmp"):
        argv += ["--tmpfs", str(home)]
        for folder in sandbox.tools:
            argv += ["--ro-bind", str(folder), str(folder)]
    for folder in sandbox.writable:
        argv += ["--bind", str(folder), str(folder)]
    for folder in sandbox.guarded:
        argv += ["--ro-bind", str(folder), str(folder)]
    for folder in git_folders(sandbox.writable):
        argv += ["--ro-bind", str(folder), str(folder)]
    if hardened:
        argv += ["--unshare-user", "--cap-drop", "ALL"]
        if root:
            argv += ["--uid", str(NOBODY), "--gid", str(NOBODY)]
        if seccomp_fd is not None:
            argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    if not sandbox.network:
        argv.append("--unshare-net")
    # --die-with-parent ends the sandbox with the studio however it ends; --new-session keeps
    # the command from reaching the studio's terminal (TIOCSTI).
    argv += ["--die-with-parent", "--new-session", "--chdir", str(cwd.resolve()), "--"]
    return argv


def _quote(path: Path) -> str:
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


def sandbox_exec_profile(sandbox: Sandbox) -> str:
    """The same policy as a macOS Seatbelt profile for `sandbox-exec -p`.

    Reads everywhere except the hidden home; writes only in the writable folders, a private
    temporary folder (macOS has no mount namespaces, so "private /tmp" is `$TMPDIR`, set per run)
    and /dev/null; network only when granted. macOS cannot end a process tree with the parent,
    so the run's process group is what is killed there."""
    lines = ["(version 1)", "(deny default)", "(allow process-exec)", "(allow process-fork)",
             "(allow signal (target same-sandbox))", "(allow sysctl-read)", "(allow mach-lookup)",
             "(allow ipc-posix-shm)", "(allow file-read*)"]
    home = sandbox.hidden_home
    if home is not None:
        lines.append(f"(deny file-read* (subpath {_quote(home)}))")
        for folder in (*sandbox.tools, *sandbox.writable, *sandbox.guarded):
            if folder.is_relative_to(home):
                lines.append(f"(allow file-read* (subpath {_quote(folder)}))")
    lines.append("(allow file-write* (literal \"/dev/null\") (literal \"/dev/tty\")")
    for folder in sandbox.writable:
        lines.append(f"    (subpath {_quote(folder)})")
    lines.append("    (subpath (param \"TMPDIR\")))")
    # Seatbelt lets the last matching rule win.
    lines += [f"(deny file-write* (subpath {_quote(folder)}))" for folder in sandbox.guarded]
    if sandbox.network:
        lines.append("(allow network*)")
    return "\n".join(lines) + "\n"


def sandbox_exec_argv(sandbox: Sandbox, tmpdir: Path) -> list[str]:
    return [SANDBOX_EXEC, "-D", f"TMPDIR={tmpdir}", "-p", sandbox_exec_profile(sandbox), "--"]


@dataclass(frozen=True, slots=True)
class Support:
    """Whether this machine can sandbox commands.

    Attributes:
        kind: "bwrap", "sandbox-exec", or None when nothing works here.
        program: the sandbox program's path.
        problem: why there is no sandbox, in words, when kind is None.
    """

    kind: str | None
    program: str = ""
    problem: str = ""
    hardened: bool = True
    seccomp: bool = False

    @property
    def available(self) -> bool:
        return self.kind is not None

    def notice(self) -> str:
        """The line shown on every approval and card when commands run unsandboxed."""
        return (f"no sandbox: {self.problem}. The command can write anywhere you can and use "
                "the network, so every command is asked about.")


def _probe_bwrap(program: str, hardened: bool = False) -> str:
    """"" when bwrap starts a sandbox like the ones we use here, else what went wrong."""
    filter_fd = -1
    try:
        if hardened and seccomp.supported():
            read, write = os.pipe()
            os.write(write, seccomp.program())
            os.close(write)
            filter_fd = read
        probe = [*bwrap_argv(Sandbox(()), Path("/"), program, hardened=hardened,
                             seccomp_fd=filter_fd if filter_fd >= 0 else None), "true"]
        done = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=_PROBE_TIMEOUT, check=False,
                              pass_fds=(filter_fd,) if filter_fd >= 0 else ())
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap ({program}) could not start: {exc}"
    finally:
        if filter_fd >= 0:
            os.close(filter_fd)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        detail = said[-1] if said else f"exit code {done.returncode}"
        return (f"bubblewrap cannot create a sandbox here ({detail}); user namespaces may be "
                "disabled")
    return ""


@functools.cache
def detect() -> Support:
    """What this machine offers, checked once per process."""
    if sys.platform == "darwin":
        if os.access(SANDBOX_EXEC, os.X_OK):
            return Support("sandbox-exec", SANDBOX_EXEC)
        return Support(None, problem=f"{SANDBOX_EXEC} is missing")
    if not sys.platform.startswith("linux"):
        return Support(None, problem=f"there is no sandbox for {sys.platform}")
    program = shutil.which("bwrap")
    if program is None:
        return Support(None, problem="bubblewrap (bwrap) is not installed; install the "
                       "`bubblewrap` package")
    if not _probe_bwrap(program, hardened=True):
        return Support("bwrap", program, seccomp=seccomp.supported())
    problem = _probe_bwrap(program)
    if problem:
        return Support(None, problem=problem)
    # An older bubblewrap, or user namespaces refused: the sandbox still holds the file system
    # and the network, but not the privileges of a root caller.
    return Support("bwrap", program, hardened=False)

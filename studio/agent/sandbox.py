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
    """

    writable: tuple[Path, ...]
    home: Path | None = None
    network: bool = False
    tools: tuple[Path, ...] = ()
    read_only: tuple[Path, ...] = ()

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


def bwrap_argv(sandbox: Sandbox, cwd: Path, bwrap: str = "bwrap") -> list[str]:
    """The bubblewrap prefix for a command run in `cwd`.

    Mount order matters: the read-only root first, then the private /tmp and /run and the hidden
    home, then the writable folders bound back on top (they may live under any of those).
    /run goes because a read-only mount still lets a program connect to the Unix sockets on it
    (the Docker daemon's, the session bus): that would be a way out with "no network"."""
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--tmpfs", "/run"]
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

    @property
    def available(self) -> bool:
        return self.kind is not None

    def notice(self) -> str:
        """The line shown on every approval and card when commands run unsandboxed."""
        return (f"no sandbox: {self.problem}. The command can write anywhere you can and use "
                "the network, so every command is asked about.")


def _probe_bwrap(program: str) -> str:
    """"" when bwrap starts a sandbox like the ones we use here, else what went wrong."""
    probe = [*bwrap_argv(Sandbox(()), Path("/")), "true"]
    probe[0] = program
    try:
        done = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=_PROBE_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap ({program}) could not start: {exc}"
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
    problem = _probe_bwrap(program)
    return Support(None, problem=problem) if problem else Support("bwrap", program)

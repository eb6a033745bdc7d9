"""The OS sandbox every approved command runs in: what it may write, whether it may use the
network, and the command line that enforces it (bubblewrap on Linux, `sandbox-exec` on macOS).

A `Sandbox` is a plain description; `bwrap_argv` and `sandbox_exec_profile` turn it into the
enforcing prefix, and `studio.agent.mounts` says what of the file system a command sees.
`detect()` says, once per process, whether this machine can enforce one: bwrap must be installed
and must actually start (user namespaces can be disabled); where neither works, `Support` names
the real cause and what to do, and the studio asks about every command and lets no automatic
approval run one.

On Linux the sandbox holds for root too: the command runs in a user namespace of its own as an
unprivileged id, with no capabilities, under a system-call filter (`studio.agent.seccomp`),
with every `.git` under its writable folders read-only and with resource limits (`Limits`) set
inside the namespace, where the process count is the sandbox's own.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import studio.agent.seccomp as seccomp
from studio.agent.mounts import (
    GUARD,
    WRITE,
    Interpreter,
    Mount,
    git_targets,
    ordered,
    read_only,
    system_mounts,
    tmpfs,
    toolchain_folders,
)
from studio.agent.netproxy import FORWARDER, INSIDE_SOCKET
from studio.paths import cache_dir, config_dir, data_dir
from studio.settings import Limits

SANDBOX_EXEC = "/usr/bin/sandbox-exec"
_PROBE_TIMEOUT = 10.0

MIB = 1024 * 1024
# The id a sandboxed command runs as when the studio runs as root ("nobody").
UNPRIVILEGED_ID = 65534
# /run inside holds nothing but what programs make there; it needs little room.
RUN_SIZE = 16 * MIB


def _rlimits(limits: Limits) -> list[int]:
    """The values the launcher sets, in its order: NPROC, AS, FSIZE, CPU, NOFILE."""
    return [limits.processes, limits.memory_mb * MIB, limits.file_size_mb * MIB,
            limits.cpu_seconds, limits.open_files]


# Run inside the sandbox before the command: sets the limits (here, inside the user namespace,
# RLIMIT_NPROC counts only the sandbox's processes), starts the forwarder to the network proxy
# when the run has one, and becomes the command.
LAUNCHER = (
    "import os,resource as r,sys\n"
    "a=sys.argv;i=a.index('--')\n"
    "for n,v in zip(('NPROC','AS','FSIZE','CPU','NOFILE'),a[1:i]):\n"
    " v=int(v)\n"
    " if v>0:r.setrlimit(getattr(r,'RLIMIT_'+n),(v,v))\n"
    + FORWARDER.lstrip("\n")
    + "os.execvp(a[i+1],a[i+1:])\n"
)

# Folders whose insides hold no repository worth guarding and can be huge.
_SKIP_WALK = frozenset({"node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"})


def git_folders(folders: Iterable[Path]) -> tuple[Path, ...]:
    """Every `.git` (folder or file) under `folders`: each is mounted read-only, so that no
    command plants a hook or a `core.fsmonitor` the user's next `git` would run outside."""
    found: list[Path] = []
    for top in folders:
        found += _walk_git(top)
    return tuple(dict.fromkeys(found))


def _walk_git(top: Path) -> Iterator[Path]:
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name == ".git":
                if not entry.is_symlink():
                    yield Path(entry.path)
            elif entry.name not in _SKIP_WALK and entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))


@dataclass(frozen=True, slots=True)
class Sandbox:
    """What a sandboxed command may do.

    Attributes:
        writable: the folders it may write in (the skill's folder and the workspace); everything
            else is read-only.
        home: the user's home folder, hidden except for the writable folders inside it.
        network: whether it may use the network (off unless the approval granted it).
        tools: folders besides the system's that stay readable, so the programs on PATH
            installed there (pyenv, nvm, a virtual environment, /opt/node) still run; see
            `mounts.toolchain_folders`.
        read_only: folders that stay read-only even inside a writable one (the unpacked copies
            of zipped skills).
        git: the `.git` folders and files inside the writable folders, bound read-only.
        limits: what the run may use.
        hosts: without `network`, the hosts it may reach over HTTP(S) through the studio's
            proxy (`studio.agent.netproxy`; `*` for any host, every connection logged).
    """

    writable: tuple[Path, ...]
    home: Path | None = None
    network: bool = False
    tools: tuple[Path, ...] = ()
    read_only: tuple[Path, ...] = ()
    git: tuple[Path, ...] = ()
    limits: Limits = field(default_factory=Limits)
    hosts: tuple[str, ...] = ()

    @property
    def proxied(self) -> bool:
        """Whether the run reaches the network only through the studio's proxy."""
        return bool(self.hosts) and not self.network

    def with_hosts(self, hosts: Iterable[str]) -> Sandbox:
        return replace(self, hosts=tuple(dict.fromkeys((*self.hosts, *hosts))))

    @classmethod
    def for_run(cls, *folders: Path, home: Path | None = None, network: bool = False,
                limits: Limits | None = None) -> Sandbox:
        """A sandbox writing in `folders` (resolved, so a link cannot redirect the bind), minus
        those already inside another one and those that do not exist (nothing to write in, and
        bwrap cannot bind them)."""
        resolved = list(dict.fromkeys(folder.resolve() for folder in folders if folder.is_dir()))
        kept = [folder for folder in resolved
                if not any(folder != outer and folder.is_relative_to(outer) for outer in resolved)]
        hidden = home.resolve() if home is not None else None
        tools = toolchain_folders(hidden, os.environ.get("PATH", "").split(os.pathsep))
        return cls(tuple(kept), hidden, network, tools, git=git_folders(kept),
                   limits=limits if limits is not None else Limits())

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
        """The read-only folders worth naming: those inside a writable folder (else they could
        be written) or inside the hidden home (else they could not be read). bwrap binds every
        read-only folder (nothing else of the host is shown); `describe` and the macOS profile,
        which reads everywhere, name only these."""
        home = self.hidden_home
        return tuple(folder for folder in self.read_only
                     if any(folder.is_relative_to(place) for place in self.writable)
                     or (home is not None and folder.is_relative_to(home)))

    def describe(self) -> str:
        """What it allows, in words: "writes only in A and B; no network; private /tmp; ..."."""
        places = " and ".join(str(folder) for folder in self.writable) or "no folder"
        if self.network:
            network = "network allowed"
        elif "*" in self.hosts:
            network = "network to any host through the studio's proxy, every connection logged"
        elif self.hosts:
            network = f"network only to {', '.join(self.hosts)} through the studio's proxy"
        else:
            network = "no network"
        parts = [f"writes only in {places}", network]
        if not any(Path("/tmp").is_relative_to(folder) for folder in self.writable):
            parts.append("private /tmp")
        if self.hidden_home is not None:
            parts.append("home folder hidden")
        parts += [f"{folder} read-only" for folder in self.guarded]
        if self.git:
            parts.append(".git read-only")
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


def bwrap_argv(sandbox: Sandbox, cwd: Path, bwrap: str = "bwrap", *, seccomp_fd: int,
               python: str = "", uid: int | None = None,
               proxy_socket: Path | None = None) -> list[str]:
    """The bubblewrap prefix for a command run in `cwd`, ending with the launcher that sets the
    limits; the command's argv follows it. `seccomp_fd` is a descriptor the child inherits,
    holding `seccomp.program()` (see `seccomp_memfd`); `proxy_socket`, the network proxy's
    socket, appears inside at `netproxy.INSIDE_SOCKET`. `python` is the launcher's interpreter
    (default: the base of the running one, see `mounts.Interpreter`)."""
    interpreter = Interpreter.at(python) if python else Interpreter.running()
    argv = [bwrap, *ordered(_mounts(sandbox, interpreter, proxy_socket, cwd)), "--remount-ro", "/"]
    # A user namespace of its own, as an unprivileged id when the studio is root, and no
    # capabilities in it: nothing inside can mount, remount or reach past the binds.
    own = os.getuid() if uid is None else uid
    inside = str(own if own != 0 else UNPRIVILEGED_ID)
    argv += ["--unshare-user", "--uid", inside, "--gid", inside, "--cap-drop", "ALL",
             "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if not sandbox.network:
        argv.append("--unshare-net")
    # --die-with-parent ends the sandbox with the studio however it ends; --new-session keeps
    # the command from reaching the studio's terminal (TIOCSTI).
    argv += ["--die-with-parent", "--new-session", "--seccomp", str(seccomp_fd),
             "--chdir", str(cwd.resolve()), "--", interpreter.program, "-I", "-S", "-c",
             LAUNCHER, *map(str, _rlimits(sandbox.limits)), "--"]
    return argv


def _mounts(sandbox: Sandbox, interpreter: Interpreter,
            proxy_socket: Path | None, cwd: Path) -> list[Mount]:
    """The sandbox's view of the file system (`studio.agent.mounts`): the system read-only, a
    private /tmp, /var/tmp, /dev/shm, /run and home, the toolchains and the launcher's
    interpreter read-only, the writable folders, and what stays read-only inside them.
    /run is private because a program may connect to a Unix socket on a read-only mount (the
    Docker daemon's, the session bus): that would be a way out with "no network"."""
    size = sandbox.limits.tmp_mb * MIB
    mounts = [*system_mounts(), Mount(Path("/dev"), ("--dev", "/dev")),
              Mount(Path("/proc"), ("--proc", "/proc")), tmpfs(Path("/dev/shm"), size),
              tmpfs(Path("/tmp"), size), tmpfs(Path("/var/tmp"), size), tmpfs(Path("/run"), RUN_SIZE)]
    if sandbox.network and RESOLVER.is_dir():
        # /etc/resolv.conf often points into it; without it a granted network has no names.
        mounts.append(read_only(RESOLVER))
    home = sandbox.hidden_home
    if home is not None and home not in (Path("/tmp"), Path("/var/tmp")):
        mounts.append(tmpfs(home, size))
    mounts += [read_only(folder) for folder in sandbox.tools]
    # The launcher's interpreter stays read-only even inside a writable folder: a run must not
    # change the Python the studio itself runs in.
    mounts += [read_only(path, GUARD) for path in interpreter.hidden_needs()]
    mounts += [Mount(folder, ("--bind", str(folder), str(folder)), WRITE)
               for folder in sandbox.writable]
    mounts += [read_only(folder, GUARD) for folder in (*sandbox.read_only, *sandbox.git,
                                                       *git_targets(sandbox.git))]
    # The studio's own folders, when a writable folder holds them (a workspace that is the home
    # folder): a run that wrote grants.yaml or settings.yaml would approve its own next commands,
    # and one that read the audit log or the chats would read other runs. An empty folder in
    # memory hides them; a writable folder inside one (a draft's) is bound after it, deeper.
    # One that does not exist is left alone: making its mount point would leave an empty folder.
    masked = [folder for folder in studio_folders() if folder.is_dir()
              and any(folder.is_relative_to(place) for place in sandbox.writable)]
    mounts += [tmpfs(folder, MIB) for folder in masked]
    # A run in a folder of the studio's (a skill drafted there) still works where it runs.
    here = cwd.resolve()
    if any(here.is_relative_to(folder) for folder in masked) and any(
            here.is_relative_to(place) for place in sandbox.writable):
        mounts.append(Mount(here, ("--bind", str(here), str(here)), WRITE))
    if proxy_socket is not None:
        mounts.append(Mount(Path(INSIDE_SOCKET), ("--ro-bind", str(proxy_socket), INSIDE_SOCKET), GUARD))
    return mounts


def studio_folders() -> tuple[Path, ...]:
    """The studio's configuration, data and cache folders, resolved as the binds are."""
    return tuple(dict.fromkeys(folder().resolve() for folder in (config_dir, data_dir, cache_dir)))


def seccomp_memfd() -> int:
    """A descriptor holding the system-call filter, at its start, for `--seccomp`; the caller
    closes it once the sandbox has started."""
    fd = os.memfd_create("studio-seccomp", 0)
    os.write(fd, seccomp.program())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


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
        remedy: what the user can do about it ("" when nothing is known to help).
    """

    kind: str | None
    program: str = ""
    problem: str = ""
    remedy: str = ""

    @property
    def available(self) -> bool:
        return self.kind is not None

    def notice(self) -> str:
        """The line shown on every approval and card when commands run unsandboxed."""
        return (f"no sandbox: {self.problem}. The command can write anywhere you can and use "
                "the network, so every command is asked about.")


INSTALL_BWRAP = ("install it (`sudo apt install bubblewrap`, `sudo dnf install bubblewrap`, "
                 "`sudo pacman -S bubblewrap`), then restart the studio")
ALLOW_NAMESPACES = (
    "allow unprivileged user namespaces (`sudo sysctl kernel.unprivileged_userns_clone=1`; on "
    "Ubuntu 24.04 and later an AppArmor profile for bwrap, or `sudo sysctl "
    "kernel.apparmor_restrict_unprivileged_userns=0`; in a container, run it with user "
    "namespaces allowed), then restart the studio")


def classify(said: str, code: int, launcher: str) -> tuple[str, str]:
    """(problem, remedy) for a probe of bwrap that failed with `said` on stderr: the real
    cause, told apart by bubblewrap's own messages."""
    lines = said.strip().splitlines()
    detail = lines[-1].strip() if lines else f"exit code {code}"
    lowered = said.lower()
    if "execvp" in lowered and launcher in said:
        return (f"the studio's Python ({launcher}) cannot be found inside the sandbox "
                f"({detail})", "report this as a bug in the studio, with how it is installed")
    if "seccomp" in lowered:
        return (f"the kernel refused the sandbox's system-call filter ({detail})",
                "run the studio on a kernel with seccomp filters (CONFIG_SECCOMP_FILTER)")
    if any(sign in lowered for sign in ("namespace", "uid map", "uid_map", "setting up uid",
                                        "clone", "unshare")):
        return (f"bubblewrap cannot create a user namespace here ({detail}): unprivileged user "
                "namespaces are disabled", ALLOW_NAMESPACES)
    if "can't find source path" in lowered:
        return (f"bubblewrap cannot show a folder inside the sandbox ({detail})",
                "report this as a bug in the studio, with how it is installed")
    if "mount" in lowered or "proc" in lowered:
        return (f"bubblewrap cannot set up its mounts here ({detail}); in a container, the "
                "container forbids mounting /proc or a tmpfs",
                "run the studio outside the container, or give the container the right to "
                "mount (e.g. `--security-opt seccomp=unconfined --security-opt "
                "apparmor=unconfined`)")
    return f"bubblewrap cannot create a sandbox here ({detail})", ""


def _probe_bwrap(program: str) -> tuple[str, str]:
    """("", "") when bwrap starts a sandbox like the ones we use here, else what went wrong and
    what to do."""
    fd = seccomp_memfd()
    argv = bwrap_argv(Sandbox(()), Path("/"), program, seccomp_fd=fd)
    launcher = argv[argv.index("-I") - 1]
    try:
        done = subprocess.run([*argv, "true"], stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=_PROBE_TIMEOUT, check=False, pass_fds=(fd,))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap ({program}) could not start: {exc}", INSTALL_BWRAP
    finally:
        os.close(fd)
    if done.returncode != 0:
        return classify(done.stderr.decode("utf-8", errors="replace"), done.returncode, launcher)
    return "", ""


@functools.cache
def detect() -> Support:
    """What this machine offers, checked once per process."""
    if sys.platform == "darwin":
        if os.access(SANDBOX_EXEC, os.X_OK):
            return Support("sandbox-exec", SANDBOX_EXEC)
        return Support(None, problem=f"{SANDBOX_EXEC} is missing")
    if not sys.platform.startswith("linux"):
        return Support(None, problem=f"there is no sandbox for {sys.platform}")
    problem = seccomp.filter_problem()
    if problem is not None:
        return Support(None, problem=problem)
    program = shutil.which("bwrap")
    if program is None:
        return Support(None, problem="bubblewrap (bwrap) is not installed", remedy=INSTALL_BWRAP)
    problem, remedy = _probe_bwrap(program)
    return Support(None, problem=problem, remedy=remedy) if problem else Support("bwrap", program)

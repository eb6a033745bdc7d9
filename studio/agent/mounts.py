"""What a sandboxed command sees of the file system: only what commands need, each at its real
path, on an empty read-only root, rather than the whole host with a few places hidden.

Shown read-only: the system's folders (`SYSTEM`: /usr, the /bin, /sbin and /lib links or folders,
/etc without what no ordinary user may read), the interpreter the launcher runs in, and the
toolchains on PATH. Private and in memory: /tmp, /var/tmp, /run, /dev/shm and the home folder.
Everything else of the host (/var, /opt, /srv, /mnt, /media, /home, /root, the host's /run and
/tmp) is simply not there, so no socket in it can be reached.

A mount hides what an earlier one put beneath it, so `ordered` mounts outer folders before the
folders inside them, whatever part of the sandbox asked for each.
"""

from __future__ import annotations

import os
import stat
import sys
import sysconfig
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# Read-only, where they exist: what programs load (binaries, libraries, their data) and their
# configuration. /nix/store holds every program of a Nix system and, by design, no secret.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/nix/store")
ETC = Path("/etc")
# Where the number of processors is read (nproc, os.cpu_count(), make -j, BLAS libraries).
SYS_SHOWN = ("/sys/devices/system/cpu",)
# Folders where anyone's home folder lives: a PATH entry there shows only itself, never its
# neighbours (~/.local/bin sits beside ~/.local/share/keyrings).
HOMES = (Path("/home"), Path("/root"))
# Folders under the home folder that hold a whole toolchain and no credentials: when a PATH entry
# lies inside one, the whole folder stays readable (pyenv's shims run `pyenv`, which reads its
# versions; nvm's node reads its lib). Elsewhere under home only the PATH entry itself is shown:
# ~/.cargo holds credentials.toml beside bin/, ~/.local holds keyrings beside bin/.
TOOLCHAIN_ROOTS = frozenset({
    ".pyenv", ".rbenv", ".nodenv", ".goenv", ".nvm", ".volta", ".asdf", ".rustup", ".sdkman",
    ".deno", ".bun", ".juliaup", "miniconda3", "anaconda3", "miniforge3", "mambaforge",
})

# Among mounts at the same path, the higher rank goes later and wins.
BASE, TOOL, WRITE, GUARD = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Mount:
    """One step of the view: bwrap's arguments for a path, ordered by `ordered`."""

    where: Path
    args: tuple[str, ...]
    rank: int = BASE


def ordered(mounts: Iterable[Mount]) -> list[str]:
    """The mounts' arguments, outer paths first (then by rank; stable among equals)."""
    steps = sorted(mounts, key=lambda mount: (len(mount.where.parts), mount.rank))
    return [arg for mount in steps for arg in mount.args]


def read_only(folder: Path, rank: int = TOOL) -> Mount:
    return Mount(folder, ("--ro-bind", str(folder), str(folder)), rank)


def tmpfs(where: Path, size: int) -> Mount:
    limit = ("--size", str(size)) if size else ()
    return Mount(where, (*limit, "--tmpfs", str(where)))


def system_folders() -> tuple[Path, ...]:
    """The system folders this machine has, resolved (/bin is often a link into /usr)."""
    return tuple(dict.fromkeys(Path(name).resolve() for name in SYSTEM if os.path.isdir(name)))


def system_mounts() -> Iterator[Mount]:
    """The system folders read-only at their paths, links recreated as links."""
    for name in (*SYSTEM, *SYS_SHOWN):
        if os.path.islink(name):
            yield Mount(Path(name), ("--symlink", os.readlink(name), name))
        elif os.path.isdir(name):
            yield read_only(Path(name), BASE)
    yield from (_mask(path) for path in etc_hidden())


def etc_hidden(top: Path = ETC) -> list[Path]:
    """What of /etc the sandbox hides: what not every user of the machine may read (/etc/shadow,
    ssh host keys, /etc/ssl/private; a sandbox the studio starts as root would otherwise read
    them, its user id being root's outside), and anything but files, folders and links (a
    socket or a pipe there would be a way out)."""
    hidden: list[Path] = []
    pending = [top]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue
            if stat.S_ISDIR(mode):
                if mode & 0o005 == 0o005:
                    pending.append(Path(entry.path))
                else:
                    hidden.append(Path(entry.path))
            elif not stat.S_ISREG(mode) or not mode & 0o004:
                hidden.append(Path(entry.path))
    return hidden


def _mask(path: Path) -> Mount:
    if path.is_dir() and not path.is_symlink():
        return Mount(path, ("--tmpfs", str(path), "--remount-ro", str(path)), GUARD)
    # bwrap binds without device nodes, so this reads as "Permission denied", as for any user.
    return Mount(path, ("--ro-bind", "/dev/null", str(path)), GUARD)


@dataclass(frozen=True, slots=True)
class Interpreter:
    """The Python the launcher runs in, and what it needs to start with `-I -S`.

    Attributes:
        program: the interpreter's real file (not a virtual environment's link to it).
        needs: the program, its standard library and its shared library, where they exist.
    """

    program: str
    needs: tuple[Path, ...]

    @classmethod
    def running(cls) -> Interpreter:
        """The base of the running interpreter: a virtual environment's python is a link to
        it, and the launcher needs only the standard library, never the environment."""
        program = sys.executable
        for candidate in (getattr(sys, "_base_executable", ""), sys.executable):
            if candidate and os.access(candidate, os.X_OK):
                program = os.path.realpath(candidate)
                break
        needs = [Path(program), Path(os.__file__).resolve().parent]
        if sysconfig.get_config_var("Py_ENABLE_SHARED"):
            needs.append(Path(str(sysconfig.get_config_var("LIBDIR")),
                              str(sysconfig.get_config_var("INSTSONAME"))))
        return cls(program, tuple(path.resolve() for path in needs if path.exists()))

    @classmethod
    def at(cls, program: str) -> Interpreter:
        """Another interpreter, laid out as Python installs itself: PREFIX/bin/pythonX.Y with
        PREFIX/lib/pythonX.Y (and PREFIX/lib/libpythonX.Y.so.1.0 when built shared)."""
        real = Path(os.path.realpath(program))
        prefix, name = real.parent.parent, real.name
        needs = [real, prefix / "lib" / name, prefix / "lib" / f"lib{name}.so.1.0"]
        return cls(str(real), tuple(path for path in needs if path.exists()))

    def hidden_needs(self) -> tuple[Path, ...]:
        """What it needs that the system folders do not show. Only these, not its whole
        prefix: a Python installed with `--prefix=$HOME/.local` has keyrings beside it."""
        shown = system_folders()
        return tuple(path for path in self.needs if not _inside(path, shown))


def _inside(path: Path, folders: Iterable[Path]) -> bool:
    return any(path.is_relative_to(folder) for folder in folders)


def toolchain_folders(home: Path | None, path_entries: Iterable[str]) -> tuple[Path, ...]:
    """The folders outside the system's a command needs to read to find its programs, from the
    PATH entries: in the home folder the entry, or its toolchain root (`TOOLCHAIN_ROOTS`); in
    someone else's home the entry alone; elsewhere the prefix of a `bin` entry (a virtual
    environment under /tmp, /opt/node), never a top-level folder (/tmp, /opt) whole."""
    shown = system_folders()
    found: list[Path] = []
    for entry in path_entries:
        # One the user cannot read would fail the whole sandbox, not only its programs.
        if not entry or not os.path.isabs(entry) or not os.access(entry, os.R_OK | os.X_OK) \
                or not os.path.isdir(entry):
            continue
        folder = Path(entry).resolve()
        if _inside(folder, shown):
            continue
        if home is not None and folder.is_relative_to(home):
            if folder == home:
                continue
            root = home / folder.relative_to(home).parts[0]
            found.append(root if root.name in TOOLCHAIN_ROOTS else folder)
            continue
        if home is not None and home.is_relative_to(folder):
            continue
        prefix = folder.parent if folder.name in ("bin", "sbin") else folder
        if _inside(folder, HOMES) or len(prefix.parts) < 3:
            prefix = folder
        if len(prefix.parts) >= 3:
            found.append(prefix)
    unique = list(dict.fromkeys(found))
    return tuple(folder for folder in unique
                 if not any(folder != outer and folder.is_relative_to(outer) for outer in unique))


def git_targets(gits: Iterable[Path]) -> tuple[Path, ...]:
    """The repositories of the worktrees among `gits` (a `.git` file whose `gitdir:` names
    REPO/.git/worktrees/NAME, which names that file back), and the folder the worktree shares
    with its main repository: without them `git status` fails in a worktree, the rest of the
    host being out of view. A `.git` file the repository does not name back (one a skill
    shipped, pointing at ~/.ssh or someone's repository) shows nothing."""
    found: list[Path] = []
    for git in gits:
        target = _worktree_of(git)
        if target is None:
            continue
        found.append(target)
        try:
            common = (target / "commondir").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if common and (target / common).resolve().is_dir():
            found.append((target / common).resolve())
    return tuple(dict.fromkeys(found))


def _worktree_of(git: Path) -> Path | None:
    try:
        if not git.is_file() or git.is_symlink():
            return None
        line = git.read_text(encoding="utf-8").partition("\n")[0]
        if not line.startswith("gitdir: "):
            return None
        target = (git.parent / line.removeprefix("gitdir: ").strip()).resolve()
        back = (target / "gitdir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return target if Path(back).resolve() == git.resolve() else None

"""Where an install puts skills for each client, as the skills CLI does (vercel-labs/skills,
`src/agents.ts` and `src/installer.ts`): one copy in `.agents/skills/NAME` (the project's, or the
user's `~/.agents/skills`), and in each other client's folder a relative link to it
(`.claude/skills/NAME -> ../../.agents/skills/NAME`), or, with `copy`, a copy of its own.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from studio.errors import StudioError
from studio.skills.clients import BY_KEY, RECORDS, SPEC
from studio.skills.install.lockfile import computed_hash

CANONICAL = BY_KEY[SPEC].project

# Each client that installs: (its folder in a project, its folder under the user's home), by key;
# the user's moves with the variables the client reads (its record's `install_folder`).
CLIENTS: dict[str, tuple[str, str]] = {
    record.key: (record.project, record.user)
    for record in sorted(RECORDS, key=lambda record: record.key) if record.installs
}

class PlacementError(StudioError):
    """A client's folder cannot take the skill; the message says which and why."""


def canonical_folder(base: Path) -> Path:
    """Where the one copy lives: `base/.agents/skills` (base: the project, or the home)."""
    return base / CANONICAL


def client_folders(clients: Iterable[str], base: Path, user: bool,
                   env: Mapping[str, str] | None = None) -> list[Path]:
    """The skill folders of `clients` for a project at `base`, or (`user`) under the home
    `base`, where each client reads them with the variables of `env` (the process's by
    default: Codex's `$CODEX_HOME/skills`, Ollama's `$OLLAMA_SKILLS`); each once, the
    canonical folder left out (the copy is there already)."""
    env = os.environ if env is None else env
    found: list[Path] = []
    for client in clients:
        if client not in CLIENTS:
            known = ", ".join(sorted(CLIENTS))
            raise PlacementError(f"{client!r} is not a client studio knows; pick from {known}")
        where = BY_KEY[client].install_folder(user)
        folder = where.resolve(None if user else base, base, env) if where is not None else None
        if folder is None:
            continue
        if folder != canonical_folder(base) and folder not in found:
            found.append(folder)
    return found


def blocking(name: str, folders: Iterable[Path], canonical: Path) -> list[Path]:
    """What is in the way of placing `name` in `folders`: an entry that is neither missing nor a
    link to the canonical copy (a folder of its own, a link elsewhere). Replacing those needs
    the user's say."""
    target = os.path.realpath(canonical / name)
    return [folder / name for folder in folders
            if os.path.lexists(folder / name)
            and not (os.path.islink(folder / name)
                     and os.path.realpath(folder / name) == target)]


def place(name: str, canonical: Path, folders: Iterable[Path], copy: bool) -> list[Path]:
    """Put the skill `canonical/NAME` into each of `folders`, as a relative link or (`copy`) a
    copy, replacing what is there; return what was written. A copy is made beside its place and
    renamed into it, so a client sees the old skill or the new one, never half."""
    written: list[Path] = []
    source = canonical / name
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        at = folder / name
        if copy:
            scratch = Path(tempfile.mkdtemp(prefix=".studio-place-", dir=folder))
            try:
                shutil.copytree(source, scratch / name, symlinks=True)
                _remove(at)
                os.rename(scratch / name, at)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
        else:
            # Relative to the link's real folder, so the link holds when the project moves.
            relative = os.path.relpath(os.path.realpath(source), os.path.realpath(folder))
            temporary = folder / f".studio-link-{name}"
            _remove(temporary)
            os.symlink(relative, temporary)
            if os.path.isdir(at) and not os.path.islink(at):
                shutil.rmtree(at)
            os.replace(temporary, at)
        written.append(at)
    return written


def _remove(path: Path) -> None:
    if os.path.islink(path) or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def unplace(name: str, canonical: Path, folders: Iterable[Path],
            hashes: frozenset[str] = frozenset()) -> list[Path]:
    """Remove the links to `canonical/NAME` in `folders`, and the copies there whose
    `computed_hash` is one of `hashes` (the installed skill's: a folder of the same name that
    is not a copy of it is someone else's and stays); return what was removed."""
    removed: list[Path] = []
    target = os.path.realpath(canonical / name)
    for folder in folders:
        at = folder / name
        if os.path.islink(at):
            if os.path.realpath(at) == target:
                at.unlink()
                removed.append(at)
        elif at.is_dir() and computed_hash(at) in hashes:
            shutil.rmtree(at)
            removed.append(at)
    return removed

"""What was installed into a skill folder, by studio or the skills CLI, from its lock file:
listing, updating and removing it (`studio list`, `studio update`, `studio remove`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from studio.skills.install.download import InstallError, InstallPlan
from studio.skills.install.entrycheck import entry_problem, entry_refusal, name_problem
from studio.skills.install.localstate import note_installed
from studio.skills.install.lockfile import (
    InstallRecord,
    LockError,
    computed_hash,
    lock_path,
    read_lock_file,
)
from studio.skills.install.placement import CLIENTS, client_folders, unplace
from studio.skills.scan.links import links_to


@dataclass(frozen=True, slots=True)
class Installed:
    """One lock file entry and what is on disk for it.

    Attributes:
        record: the entry.
        folder: where its copy is (`INTO/NAME`).
        present: whether that folder exists.
        changed: whether its files differ from the recorded hash (edited since the install);
            None when it is missing or the entry has no hash.
        links: the links that lead to it (from the clients' folders).
        problem: why the entry is refused (see `entrycheck`); with a bad name, its folder is
            not looked at.
    """

    record: InstallRecord
    folder: Path
    present: bool
    changed: bool | None
    links: tuple[Path, ...]
    problem: str | None = None


def iter_installed(into: Path, skip: int = 0) -> Iterator[Installed]:
    """Every entry of the lock file for `into` by name, from the one after the first `skip`,
    each looked at on disk only when it is asked for (a page of `studio list` hashes the
    folders it shows, not the others). Raises LockError, before the first entry."""
    records = read_lock_file(lock_path(into)).records()
    return (_installed(into, record) for record in records[skip:])


def _installed(into: Path, record: InstallRecord) -> Installed:
    folder = into / record.name
    refusal = entry_problem(record)
    if name_problem(record.name) is not None:
        return Installed(record, folder, False, None, (), refusal)
    present = folder.is_dir()
    changed = (computed_hash(folder) != record.computed_hash
               if present and record.computed_hash else None)
    return Installed(record, folder, present, changed,
                     tuple(links_to(folder)) if present else (), refusal)


def client_places(record: InstallRecord, base: Path, user: bool) -> list[Path]:
    """The client folders an install may have placed `record` in: those it recorded, else
    every client's (the skills CLI records none)."""
    clients = record.studio.get("clients")
    names = [c for c in clients if c in CLIENTS] if isinstance(clients, list) else sorted(CLIENTS)
    return client_folders(names, base, user)


def remove_installed(into: Path, name: str, base: Path | None, user: bool) -> list[Path]:
    """Remove the installed skill `name`: the links to it and the copies of it in the client
    folders of `base` (the project, or with `user` the home), its folder in `into`, and its lock
    entry; return the paths removed. Raises LockError (the lock file unreadable: nothing is
    removed) or KeyError (no such entry)."""
    lock = read_lock_file(lock_path(into))
    record = lock.get(name)
    if record is None:
        raise KeyError(name)
    problem = name_problem(name)
    if problem is not None:
        raise LockError(f"{lock.path}: the entry {name!r} was refused: its name {problem}")
    folder = into / name
    removed: list[Path] = []
    hashes = frozenset(h for h in (record.computed_hash,) if h)
    if folder.is_dir():
        hashes |= {computed_hash(folder)}
    if base is not None:
        removed.extend(unplace(name, into, client_places(record, base, user), hashes))
    removed.extend(link for link in links_to(folder) if link.is_symlink() and _unlink(link))
    if folder.is_symlink():
        folder.unlink()
        removed.append(folder)
    elif folder.is_dir():
        shutil.rmtree(folder)
        removed.append(folder)
    lock.remove(name)
    lock.write()
    note_installed(into, {name: ""})
    return removed


def _unlink(link: Path) -> bool:
    link.unlink()
    return True


def fetchable(record: InstallRecord) -> str:
    """What to fetch again to update `record`: the URL we recorded, else the CLI's source with
    its ref (`owner/repo#ref`). Raises InstallError, naming the entry and the field, for an entry
    `entrycheck` refuses (a lock file comes with a project: it is untrusted)."""
    refusal = entry_refusal(record)
    if refusal is not None:
        raise InstallError(refusal)
    if record.studio.get("url"):
        return record.url
    return f"{record.url}#{record.ref}" if record.ref else record.url


def unchanged(plan: InstallPlan, known: dict[str, str]) -> bool:
    """Whether every skill `plan` fetched hashes as the lock file recorded it (`known`: name to
    computedHash), the skills CLI's own test for an update."""
    return all(known.get(skill.folder) == computed_hash(skill.staged) for skill in plan.skills)


def project_of(into: Path) -> tuple[Path, bool] | None:
    """The project (or home, True) whose `.agents/skills` is `into`; None for another folder."""
    if into.name != "skills" or into.parent.name != ".agents":
        return None
    base = into.parent.parent
    return base, base == Path.home()


def record_for(directory: Path) -> InstallRecord | None:
    """The lock file entry of the skill folder `directory`, when it was installed (by studio or
    the skills CLI); None otherwise, or when the lock file cannot be read."""
    try:
        return read_lock_file(lock_path(directory.parent)).get(directory.name)
    except LockError:
        return None

"""`studio sync --check`: how each skill a lock file records stands on disk, changing nothing.

Each entry of `skills-lock.json` (studio's and the skills CLI's) is one of:

- ok: its folder hashes as recorded (`computedHash`);
- missing: its folder is not there (or is not a folder);
- not at its locked commit: this machine last wrote it from another commit than the entry names
  (the lock file was updated, the copy was not synced; see `localstate`);
- modified: its files differ; which ones (added, removed, changed) when the entry lists its files
  (studio's do; the skills CLI records only the folder's hash);
- refused: the entry itself fails `entrycheck` (a lock file comes with a project: untrusted).

The skills CLI's `node_modules` entries (skills that npm packages carry, which its
`experimental_sync` installs) are checked by their hash only: studio does not fetch npm packages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.skills.install.entrycheck import entry_problem, name_problem
from studio.skills.install.localstate import installed_commits
from studio.skills.install.lockfile import (
    InstallRecord,
    computed_hash,
    file_digests,
)

OK = "ok"
MISSING = "missing"
MODIFIED = "modified"
NOT_AT_COMMIT = "not at its locked commit"
REFUSED = "refused"
NODE_MODULES = "node_modules"


@dataclass(frozen=True, slots=True)
class Standing:
    """One entry and what is on disk for it.

    Attributes:
        record: the entry.
        state: one of the states above.
        folder: where its copy is (`INTO/NAME`); None for a refused entry.
        added, removed, changed: the files that differ from the entry's list, by relative path.
        files_known: whether the entry lists its files (so the three lists above say it all).
        installed_commit: the commit this machine last wrote it from, when noted.
        problem: why a refused entry was refused.
    """

    record: InstallRecord
    state: str
    folder: Path | None = None
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    files_known: bool = False
    installed_commit: str | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.state == OK

    @property
    def locked_commit(self) -> str | None:
        commit = self.record.studio.get("commit")
        return commit if isinstance(commit, str) and commit else None

    def describe(self) -> list[str]:
        """Lines for a terminal or a dialog: the state, then what differs."""
        name = self.record.name
        if self.state == REFUSED:
            return [f"{name}: refused: {self.problem}"]
        if self.state == NOT_AT_COMMIT:
            lines = [f"{name}: not at its locked commit {self.locked_commit} (last written from "
                     f"{self.installed_commit})"]
        elif self.state == MODIFIED and not self.files_known:
            lines = [f"{name}: modified (its files do not hash as locked; the entry lists no "
                     "files, so which ones is not known)"]
        else:
            lines = [f"{name}: {self.state}"]
        lines.extend(f"  {how} {path}" for how, paths in (
            ("added", self.added), ("removed", self.removed), ("changed", self.changed))
            for path in paths)
        return lines

    def as_json(self) -> dict[str, Any]:
        return {"name": self.record.name, "state": self.state,
                "folder": str(self.folder) if self.folder is not None else None,
                "source": self.record.source, "ref": self.record.ref,
                "lockedCommit": self.locked_commit, "installedCommit": self.installed_commit,
                "added": list(self.added), "removed": list(self.removed),
                "changed": list(self.changed), "filesKnown": self.files_known,
                "problem": self.problem}


def locked_files(record: InstallRecord) -> dict[str, str] | None:
    """The files the entry lists (relative path to sha256), or None when it lists none."""
    files = record.studio.get("files")
    if not isinstance(files, dict):
        return None
    return {str(path): str(digest) for path, digest in files.items()}


def standing(into: Path, record: InstallRecord, commits: dict[str, str] | None = None) -> Standing:
    """How `record` stands in the skill folder `into` (see the module docstring)."""
    # The skills CLI's node_modules entries name an npm package, which studio does not fetch:
    # they are checked by their hash alone (`npx skills experimental_sync` restores them).
    problem = entry_problem(record)
    if record.source_type == NODE_MODULES:
        bad_name = name_problem(record.name)
        problem = f"its name {bad_name}" if bad_name is not None else None
    if problem is not None:
        return Standing(record, REFUSED, problem=problem)
    folder = into / record.name
    installed = (commits if commits is not None else installed_commits(into)).get(record.name)
    if not folder.is_dir():
        return Standing(record, MISSING, folder, installed_commit=installed)
    if computed_hash(folder) == record.computed_hash:
        return Standing(record, OK, folder, installed_commit=installed)
    listed = locked_files(record)
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    if listed is not None:
        present = file_digests(folder)
        added = tuple(path for path in present if path not in listed)
        removed = tuple(path for path in listed if path not in present)
        changed = tuple(path for path, digest in present.items()
                        if path in listed and listed[path] != digest)
    locked = record.studio.get("commit")
    state = NOT_AT_COMMIT if installed and locked and installed != locked else MODIFIED
    return Standing(record, state, folder, added, removed, changed, listed is not None, installed)


def check_records(into: Path, records: list[InstallRecord]) -> list[Standing]:
    """How each of `records` stands in `into`, by name."""
    commits = installed_commits(into)
    return [standing(into, record, commits) for record in records]


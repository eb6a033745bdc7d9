"""`skills-lock.json`: the record of what was installed from where, in the skills CLI's shape.

The skills CLI (vercel-labs/skills, `src/local-lock.ts`) writes a project's `skills-lock.json` as

    {"version": 1, "skills": {NAME: {"source", "sourceType", "computedHash", ...}}}

and so do we, into the same file: a project installed by both tools keeps one record. Rules:

- Every key we do not know (top level or per entry) is kept as it was read; no entry is dropped.
- Our own data goes into a per-entry `"studio"` object: the CLI copies an entry it does not touch
  as it is, and replaces an entry whole when it reinstalls that skill (when our data is stale).
- Our earlier shape, `{"version", "installs": [{url, sha256, installed_at, skills}]}`, is migrated
  to entries on the next write.
- A file that cannot be read or understood raises LockError: an install stops and the file stays
  byte for byte as it was (the CLI reads such a file as empty and would write over it).
- Writes go to a temporary file renamed over the old one.

`computed_hash` hashes a skill folder exactly as the CLI's `computeSkillFolderHash`, so either tool
sees the other's installs as up to date or changed alike.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.errors import StudioError
from studio.fsutil import atomic_write_text

LOCK_FILE = "skills-lock.json"
LOCK_VERSION = 1
STUDIO_KEY = "studio"


class LockError(StudioError):
    """The lock file exists but cannot be read or is not a lock file we understand."""


@dataclass(frozen=True, slots=True)
class InstallRecord:
    """One skill's entry, as both tools write it (see the module docstring).

    Attributes:
        name: the key in `skills` (the installed folder's name).
        source: where it came from (`owner/repo`, a git URL, an archive URL, a local path).
        source_type: the kind of source, in the CLI's words (github, git, local, well-known)
            or ours (archive: a zip or tar.gz URL).
        computed_hash: the folder's hash as the CLI computes it (see `computed_hash`).
        ref: the branch, tag or commit asked for, when one was.
        studio: our own data (url, sha256, installedAt, commit, files, clients, mode, pinned);
            {} for entries the CLI wrote.
    """

    name: str
    source: str
    source_type: str
    computed_hash: str
    ref: str | None = None
    studio: dict[str, Any] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """What to fetch again to update it: our recorded URL, else the CLI's source."""
        url = self.studio.get("url")
        return url if isinstance(url, str) and url else self.source

    @property
    def installed_by(self) -> str:
        return "studio" if self.studio else "skills CLI"

    def pinned_note(self) -> str | None:
        """What an update says of this entry when it was installed with --pin (it stays at its
        commit); None when it is not pinned."""
        if self.studio.get("pinned") is not True:
            return None
        commit = self.studio.get("commit")
        at = f"commit {commit}" if isinstance(commit, str) and commit else "its recorded files"
        follow = f"#{self.ref}" if self.ref else "its source"
        return (f"{self.name}: pinned at {at}, not updated; install it again without --pin to "
                f"follow {follow}")


@dataclass(slots=True)
class LockFile:
    """A lock file as read: its whole JSON object (unknown keys included) and where it lives."""

    path: Path
    data: dict[str, Any]

    @property
    def skills(self) -> dict[str, Any]:
        skills = self.data.setdefault("skills", {})
        assert isinstance(skills, dict)
        return skills

    def records(self) -> list[InstallRecord]:
        """Each entry that has at least a source, by name."""
        found: list[InstallRecord] = []
        for name, entry in sorted(self.skills.items()):
            if not isinstance(entry, dict):
                continue
            source = entry.get("source")
            studio = entry.get(STUDIO_KEY)
            studio = dict(studio) if isinstance(studio, dict) else {}
            if not isinstance(source, str):
                source = str(studio.get("url", ""))
            ref = entry.get("ref")
            found.append(InstallRecord(
                name, source, str(entry.get("sourceType", "")), str(entry.get("computedHash", "")),
                ref if isinstance(ref, str) and ref else None, studio,
            ))
        return found

    def get(self, name: str) -> InstallRecord | None:
        return next((record for record in self.records() if record.name == name), None)

    def put(self, record: InstallRecord) -> None:
        """Add or replace `record`'s entry, keeping the keys of an earlier entry we do not set."""
        old = self.skills.get(record.name)
        entry: dict[str, Any] = dict(old) if isinstance(old, dict) else {}
        entry["source"] = record.source
        entry["sourceType"] = record.source_type
        if record.ref:
            entry["ref"] = record.ref
        else:
            entry.pop("ref", None)
        entry["computedHash"] = record.computed_hash
        if record.studio:
            entry[STUDIO_KEY] = record.studio
        self.skills[record.name] = entry

    def remove(self, name: str) -> bool:
        return self.skills.pop(name, None) is not None

    def write(self) -> None:
        """Write it back, skills sorted by name as the CLI does (clean diffs), temp-then-rename."""
        data = dict(self.data)
        data["version"] = data.get("version", LOCK_VERSION)
        data["skills"] = {name: self.skills[name] for name in sorted(self.skills)}
        ordered = {"version": data.pop("version"), "skills": data.pop("skills"), **data}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.path, json.dumps(ordered, indent=2, ensure_ascii=False) + "\n")


def lock_path(into: Path) -> Path:
    """Where the lock file of installs into `into` lives: a project's `.agents/skills` (or any
    client's `.X/skills`) records at the project root, as the CLI does; any other folder in
    itself."""
    parent = into.parent
    if into.name == "skills" and parent.name.startswith(".") and parent.parent != Path.home():
        return parent.parent / LOCK_FILE
    return into / LOCK_FILE


def read_lock_file(path: Path) -> LockFile:
    """The lock file at `path` (empty when there is none). Raises LockError, saying what and
    where, when it exists but cannot be read or understood; the file is not touched."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return LockFile(path, {"version": LOCK_VERSION, "skills": {}})
    except OSError as exc:
        raise LockError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise LockError(f"{path} is not UTF-8 text (byte {exc.start}); fix or move it, then "
                        "try again") from None
    except json.JSONDecodeError as exc:
        raise LockError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                        f"{exc.msg}); fix or move it, then try again") from None
    if not isinstance(data, dict):
        raise LockError(f"{path} is not a JSON object; fix or move it, then try again")
    skills = data.get("skills", {})
    installs = data.get("installs")
    if not isinstance(skills, dict) or (installs is not None and not isinstance(installs, list)):
        raise LockError(f"{path}: \"skills\" is not an object (or \"installs\" not a list); "
                        "fix or move it, then try again")
    lock = LockFile(path, copy.deepcopy(data))
    lock.data.setdefault("skills", {})
    if installs is not None:
        _migrate(lock, installs)
    return lock


def _migrate(lock: LockFile, installs: list[Any]) -> None:
    """Turn our earlier `installs` list into entries (an entry already there wins)."""
    root = lock.path.parent
    for item in installs:
        if not isinstance(item, dict):
            continue
        url, digest, when, skills = (item.get(k) for k in ("url", "sha256", "installed_at", "skills"))
        if not isinstance(url, str) or not isinstance(skills, list):
            continue
        for name in skills:
            if not isinstance(name, str) or name in lock.skills:
                continue
            folder = root / name
            lock.put(InstallRecord(
                name, url, "archive", computed_hash(folder) if folder.is_dir() else "",
                None, {"url": url, "sha256": digest or "", "installedAt": when or ""},
            ))
    del lock.data["installs"]


def read_lock(root: Path) -> list[InstallRecord]:
    """The installs recorded for the skill folder `root`; [] when there is no lock file.
    Raises LockError for one that cannot be read."""
    return read_lock_file(lock_path(root)).records()


def record_install(root: Path, record: InstallRecord) -> None:
    """Add or replace `record` in the lock file of installs into `root`."""
    lock = read_lock_file(lock_path(root))
    lock.put(record)
    lock.write()


def studio_record(name: str, folder: Path, url: str, when: str, sha256: str = "", *,
                  source: str | None = None, source_type: str = "archive",
                  ref: str | None = None, extra: dict[str, Any] | None = None) -> InstallRecord:
    """The entry for a skill we installed into `folder` from `url` at `when`."""
    studio: dict[str, Any] = {"url": url, "installedAt": when}
    if sha256:
        studio["sha256"] = sha256
    studio.update(extra or {})
    return InstallRecord(name, source or url, source_type, computed_hash(folder), ref, studio)


def origins(root: Path) -> dict[str, str]:
    """Each installed skill folder's name and where it came from; {} for an unreadable file."""
    try:
        return {record.name: record.url for record in read_lock(root)}
    except LockError:
        return {}


def computed_hash(folder: Path) -> str:
    """sha256 over every regular file below `folder` (not inside `.git` or `node_modules`, links
    not followed), in the CLI's order: for each, its relative path with `/` and its bytes."""
    files = sorted(_files(folder, ""), key=_locale_key)
    digest = hashlib.sha256()
    for relative in files:
        digest.update(relative.encode("utf-8"))
        digest.update((folder / relative).read_bytes())
    return digest.hexdigest()


def file_digests(folder: Path) -> dict[str, str]:
    """Each file `computed_hash` reads below `folder` (its relative path with `/`) and the sha256
    of its bytes: what an install shows before it writes and records, so that a check can name
    the files that changed since."""
    return {relative: hashlib.sha256((folder / relative).read_bytes()).hexdigest()
            for relative in sorted(_files(folder, ""), key=_locale_key)}


def _files(folder: Path, prefix: str) -> Iterator[str]:
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in (".git", "node_modules"):
                    yield from _files(Path(entry.path), f"{prefix}{entry.name}/")
            elif entry.is_file(follow_symlinks=False):
                yield prefix + entry.name


# JavaScript's `localeCompare` (ICU's root collation) puts punctuation before digits before
# letters, ignores case first and puts lower case first on a tie; this key does the same for the
# characters file names use, which is what keeps the hash equal to the CLI's.
_PUNCTUATION = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


def _locale_key(text: str) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    primary: list[tuple[int, int]] = []
    tertiary: list[int] = []
    for char in text:
        at = _PUNCTUATION.find(char)
        if char == " ":
            primary.append((0, 0))
        elif at >= 0:
            primary.append((1, at))
        elif char.isdigit():
            primary.append((2, ord(char)))
        elif char.isalpha():
            primary.append((3, ord(char.lower())))
        else:
            primary.append((4, ord(char)))
        tertiary.append(1 if char.isupper() else 0)
    return tuple(primary), tuple(tertiary)

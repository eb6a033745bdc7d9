"""The holding folder: files a run wrote that other tools would run later (`studio.agent.held`),
moved out of the workspace right after the run, before anything else runs, and kept in the app's
data folder until the user keeps them (moved back) or discards them (deleted).

Each run's held files are one hold: `data_dir()/held/ID/` with `items/N` (each file or folder
as the run left it) and `manifest.json` (where each came from and why it was held). A changed
file goes to the hold and its copy from before the run is put back in its place.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shutil
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from studio.agent.writes import Change, Snapshot
from studio.errors import StudioError
from studio.fsutil import json_text
from studio.paths import data_dir

HELD_FOLDER = "held"
MANIFEST = "manifest.json"
# Holds nobody kept are discarded after this long: the default, written down.
MAX_AGE_S = 30 * 24 * 3600
_HOLD_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{8}")


class HoldError(StudioError):
    """A hold that cannot be read or does not exist; the message says which and why."""


@dataclass(frozen=True, slots=True)
class HeldItem:
    """One held file or folder: where it came from, whether the run created or changed it, why
    it was held, and the run that wrote it."""

    path: Path
    kind: str
    reason: str
    top: Path
    is_dir: bool = False


@dataclass(frozen=True, slots=True)
class Hold:
    """What `HoldingArea.hold` did: the hold's id (None when nothing was held), the items held,
    and what could not be held (each a sentence)."""

    hold_id: str | None
    items: tuple[HeldItem, ...]
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Landing:
    """What keeping a hold did: the paths put in place, and why the others were not."""

    landed: tuple[Path, ...]
    problems: tuple[str, ...]
    command: str
    cwd: str
    skill: str


def _move(source: Path, target: Path) -> None:
    """Rename, or copy and delete where the two are on different file systems (links as links).
    A folder the run made read-only (`chmod a-w`, to keep a planted file in place) is made
    writable for its owner again first: the sandbox ran as that owner, so the folder is ours."""
    try:
        os.rename(source, target)
    except PermissionError:
        # Moving a folder to another parent rewrites its `..`: it must be writable too.
        _let_owner_write(source.parent)
        _let_owner_write(source)
        os.rename(source, target)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        shutil.move(str(source), str(target))


def _let_owner_write(folder: Path) -> None:
    with contextlib.suppress(OSError):
        mode = os.lstat(folder).st_mode
        if stat.S_ISDIR(mode):
            os.chmod(folder, stat.S_IMODE(mode) | stat.S_IRWXU)


def _remove(folder: Path) -> None:
    """Delete a hold, read-only folders in it too (a run may leave `chmod 000` folders): each
    is made the owner's to enter before the walk goes into it."""
    _let_owner_write(folder)
    for parent, folders, _files in os.walk(folder):
        for name in folders:
            _let_owner_write(Path(parent, name))
    shutil.rmtree(folder, ignore_errors=True)


def _leads_into(folder: Path, top: Path) -> bool:
    """Whether `folder`, where it exists so far, resolves inside `top`: a link put in its place
    since the run would have Keep write (and make folders) elsewhere."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        if existing.is_symlink():
            return False  # a dangling link: following it makes folders wherever it points
        existing = existing.parent
    return existing.resolve().is_relative_to(top)


def _restore(path: Path, data: bytes, mode: int) -> None:
    """Put `data` back at `path` (temp file, then rename: never half a file)."""
    temporary = path.with_name(f".{path.name}.studio-restore-{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class HoldingArea:
    """The holds under `root` (default: `data_dir()/held`)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else data_dir() / HELD_FOLDER

    def folder(self, hold_id: str) -> Path:
        """The hold's folder; `HoldError` for an id that is not one (it comes from stored chats)."""
        if not _HOLD_ID.fullmatch(hold_id):
            raise HoldError(f"{hold_id!r} is not the id of held files")
        return self.root / hold_id

    def hold(self, changes: Sequence[Change], before: Snapshot, *, command: str, cwd: Path,
             skill: str) -> Hold:
        """Move each of `changes` into a new hold; a changed file gets its copy from `before`
        back. A changed file with no copy (too large) stays as the run left it, and is named in
        `problems`, as is one that cannot be moved."""
        if not changes:
            return Hold(None, (), ())
        self._prune()
        hold_id = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"
        folder = self.folder(hold_id)
        items_folder = folder / "items"
        items_folder.mkdir(parents=True, mode=0o700)
        os.chmod(self.root, 0o700)
        held: list[HeldItem] = []
        manifest: list[dict[str, str]] = []
        problems: list[str] = []
        for change in changes:
            path = Path(change.path)
            backup = before.backups.get(change.path)
            if change.kind == "changed" and backup is None and not change.is_dir:
                problems.append(f"{path} was changed and is left as the run wrote it: it "
                                "was too large to copy before the run. Read it before "
                                f"anything runs it ({change.reason})")
                continue
            name = str(len(manifest))
            try:
                _move(path, items_folder / name)
                if backup is not None:
                    _restore(path, backup, before.entries[change.path].mode)
            except OSError as exc:
                problems.append(f"{path} could not be held back ({exc.strerror or exc}); "
                                f"it is where the run left it. Read it before anything runs it "
                                f"({change.reason})")
                if not (items_folder / name).exists():
                    continue
            top = Path(before.top_of(change.path))
            held.append(HeldItem(path, change.kind, change.reason, top, change.is_dir))
            manifest.append({"item": name, "path": change.path, "kind": change.kind,
                             "reason": change.reason, "top": str(top)})
        if not manifest:
            _remove(folder)
            return Hold(None, (), tuple(problems))
        _Manifest(command, str(cwd), skill, manifest).write(folder)
        return Hold(hold_id, tuple(held), tuple(problems))

    def pending(self, hold_id: str) -> bool:
        """Whether the hold still waits for Keep or Discard."""
        try:
            return (self.folder(hold_id) / MANIFEST).is_file()
        except HoldError:
            return False

    def keep(self, hold_id: str) -> Landing:
        """Move the hold's files back where the run wrote them. A file replaces what is there
        now (a changed file's restored copy); a folder never merges into one that exists, and a
        place whose folder now leads outside the run's folders (a link put there since) is
        refused. What could not land stays held."""
        folder = self.folder(hold_id)
        data = _Manifest.read(folder)
        landed: list[Path] = []
        problems: list[str] = []
        remaining: list[dict[str, str]] = []
        for item in data.items:
            source = folder / "items" / item["item"]
            target, top = Path(item["path"]), Path(item["top"])
            problem = None
            if not item["item"].isdigit() or not target.is_absolute():
                problem = f"{target}: the hold's record of it is damaged"
            elif not os.path.lexists(source):
                continue
            else:
                try:
                    if not _leads_into(target.parent, top):
                        problem = (f"{target}: its folder now leads outside {top}; move "
                                   "it back by hand if you want it")
                    elif source.is_dir() and not source.is_symlink() and os.path.lexists(target):
                        problem = (f"{target} exists now; move it aside and keep the held "
                                   "files again")
                    else:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        _move(source, target) if source.is_dir() else os.replace(source, target)
                        landed.append(target)
                        continue
                except OSError as exc:
                    problem = f"{target}: {exc.strerror or exc}"
            problems.append(problem)
            remaining.append(item)
        if remaining:
            _Manifest(data.command, data.cwd, data.skill, remaining).write(folder)
        else:
            _remove(folder)
        return Landing(tuple(landed), tuple(problems), data.command, data.cwd, data.skill)

    def discard(self, hold_id: str) -> Landing:
        """Delete the hold; says what it held."""
        folder = self.folder(hold_id)
        data = _Manifest.read(folder)
        _remove(folder)
        return Landing(tuple(Path(item["path"]) for item in data.items), (), data.command,
                       data.cwd, data.skill)

    def _prune(self) -> None:
        try:
            holds = list(self.root.iterdir())
        except OSError:
            return
        now = time.time()
        for hold in holds:
            with contextlib.suppress(OSError):
                if _HOLD_ID.fullmatch(hold.name) and now - hold.stat().st_mtime > MAX_AGE_S:
                    _remove(hold)


@dataclass(frozen=True, slots=True)
class _Manifest:
    """A hold's record: the run that wrote its files, and each item (its number in `items/`,
    the path it came from, created or changed, why, and the run's folder it lies in)."""

    command: str
    cwd: str
    skill: str
    items: list[dict[str, str]]

    def write(self, folder: Path) -> None:
        temporary = folder / f"{MANIFEST}.tmp"
        temporary.write_text(json_text({"command": self.command, "cwd": self.cwd,
                                        "skill": self.skill, "items": self.items}),
                             encoding="utf-8")
        os.replace(temporary, folder / MANIFEST)

    @classmethod
    def read(cls, folder: Path) -> _Manifest:
        try:
            data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise HoldError(f"there are no held files {folder.name}: they were kept or "
                            "discarded already") from None
        except (OSError, ValueError) as exc:
            raise HoldError(f"cannot read the held files {folder}: {exc}") from exc
        items = data.get("items") if isinstance(data, dict) else None
        if not isinstance(items, list) or not all(
                isinstance(item, dict) and all(isinstance(item.get(key), str) for key in
                                               ("item", "path", "kind", "reason", "top"))
                for item in items):
            raise HoldError(f"the held files {folder} have a damaged record ({MANIFEST})")
        return cls(str(data.get("command", "")), str(data.get("cwd", "")),
                   str(data.get("skill", "")), items)

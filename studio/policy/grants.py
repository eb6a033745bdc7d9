"""Grants: commands the user chose to "always allow", each scoped to one program (with its
subcommand) in one folder of one workspace. Session grants live in memory; remembered ones in an
editable YAML file, which is never overwritten when it cannot be read."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from studio.errors import StudioError
from studio.fsutil import atomic_write_text
from studio.paths import config_dir

GRANTS_FILE = "grants.yaml"
# A host a sandboxed run may reach through the studio's proxy is kept as a grant of this
# "command" (no program is named so) for the whole workspace.
HOST_GRANT = "network host "

_HEADER = """\
# Commands Skill Studio may run without asking ("always allow").
# Each grant lets one command (a program, with its subcommand for git and package managers) run
# on files in one folder of one workspace, and below it. `folder` is relative to `workspace`;
# "./" is the whole workspace. Edit or delete entries freely; blocked commands are never allowed.
"""


class GrantsError(StudioError):
    """The grants file cannot be read or written; the message says where and what to do."""


@dataclass(frozen=True, slots=True)
class Grant:
    """Attributes:
    command: the program as the policy names it: `cat`, `git commit`, `python3 -m pytest`, or a
        workspace-relative script path such as `scripts/run.sh`.
    folder: workspace-relative POSIX folder ending in "/", "./" for the whole workspace.
    workspace: the absolute workspace folder this grant belongs to.
    """

    command: str
    folder: str
    workspace: Path
    added: str = ""
    remembered: bool = False

    @property
    def key(self) -> str:
        return f"{self.command}:{self.folder}"

    def describe(self) -> str:
        if self.folder == "./":
            return f"`{self.command}` anywhere in the workspace"
        return f"`{self.command}` in `{self.folder}` and below"

    def covers(self, program: str | None, targets: Sequence[Path], workspace: Path) -> bool:
        """True when this grant allows `program` touching every one of `targets`."""
        if program is None or program != self.command or not targets:
            return False
        if Path(os.path.realpath(self.workspace)) != workspace:
            return False
        base = Path(os.path.realpath(workspace / self.folder))
        if base != workspace and not base.is_relative_to(workspace):
            return False
        return all(t == base or t.is_relative_to(base) for t in targets)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "folder": self.folder,
            "workspace": str(self.workspace),
            "key": self.key,
            "added": self.added,
            "remembered": self.remembered,
        }


@dataclass(frozen=True, slots=True)
class GrantProposal:
    """What "always allow" would grant for one command: one grant per program that needs it."""

    grants: tuple[Grant, ...]

    @property
    def description(self) -> str:
        return "; ".join(g.describe() for g in self.grants)

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description, "grants": [g.to_json() for g in self.grants]}


def normalize_folder(folder: str) -> str:
    """A grant folder in its one spelling: relative, POSIX, ending in "/", "./" for the root.

    Raises ValueError for absolute folders and ones that climb out with "..".
    """
    text = folder.strip().replace("\\", "/")
    if not text or text in (".", "./"):
        return "./"
    path = PurePosixPath(text)
    if path.is_absolute() or text.startswith("~"):
        raise ValueError(f"folder {folder!r} must be relative to the workspace")
    parts = [p for p in path.parts if p != "."]
    if ".." in parts:
        raise ValueError(f"folder {folder!r} must not climb out of the workspace with ..")
    return "/".join(parts) + "/" if parts else "./"


def default_path() -> Path:
    return config_dir() / GRANTS_FILE


class Grants:
    """The session's grants and the remembered ones.

    `path` is the YAML file of remembered grants: None means `config_dir()/grants.yaml`; use
    `Grants.session_only()` for a store with no file. `problem` holds why the file could not be
    read; until it is fixed the file is left alone and remembering a grant raises GrantsError.
    """

    def __init__(self, path: Path | None = None, *, persist: bool = True) -> None:
        self.path: Path | None = (path or default_path()) if persist else None
        self._session: list[Grant] = []
        self._remembered: list[Grant] = []
        self.problem: str | None = None
        self._lock = threading.Lock()
        self.reload()

    @classmethod
    def session_only(cls) -> Grants:
        return cls(persist=False)

    # -- reading ----------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the file again (the user may have edited it)."""
        if self.path is None:
            return
        grants, problem = _read(self.path)
        with self._lock:
            self._remembered = grants
            self.problem = problem

    def all(self) -> list[Grant]:
        with self._lock:
            return list(self._remembered) + list(self._session)

    def for_workspace(self, workspace: Path) -> list[Grant]:
        real = Path(os.path.realpath(workspace))
        return [g for g in self.all() if Path(os.path.realpath(g.workspace)) == real]

    def covering(self, program: str | None, targets: Sequence[Path], workspace: Path) -> Grant | None:
        for grant in self.for_workspace(workspace):
            if grant.covers(program, targets, workspace):
                return grant
        return None

    # -- changing ---------------------------------------------------------------------------------

    def add(self, grant: Grant, *, remember: bool = False) -> Grant:
        """Add a grant for this session, and to the file too when `remember` is set.

        Raises GrantsError when the file cannot be read or written; the grant then still holds
        for this session, so the user's choice is not lost, and the message says so.
        """
        try:
            folder = normalize_folder(grant.folder)
        except ValueError as exc:
            raise GrantsError(str(exc)) from exc
        grant = Grant(
            grant.command.strip(),
            folder,
            Path(os.path.realpath(grant.workspace)),
            grant.added or datetime.now(UTC).isoformat(timespec="seconds"),
            remember,
        )
        if not grant.command:
            raise GrantsError("a grant needs a command; a bare folder would allow everything")
        if remember:
            try:
                self._change_file(lambda grants: [*_without(grants, grant), grant])
                return grant
            except GrantsError as exc:
                grant = replace(grant, remembered=False)
                self._add_session(grant)
                raise GrantsError(f"{exc}; {grant.describe()} is allowed for this session only") from exc
        self._add_session(grant)
        return grant

    def _add_session(self, grant: Grant) -> None:
        with self._lock:
            if grant not in self._session:
                self._session = [*_without(self._session, grant), grant]

    def add_proposal(self, proposal: GrantProposal, *, remember: bool = False) -> list[Grant]:
        """Add every grant of a proposal; see `add` for what happens when the file is broken."""
        added: list[Grant] = []
        failure: GrantsError | None = None
        for grant in proposal.grants:
            try:
                added.append(self.add(grant, remember=remember))
            except GrantsError as exc:
                failure = exc
        if failure is not None:
            raise failure
        return added

    def add_host(self, host: str, workspace: Path, *, remember: bool = False) -> Grant:
        """Let sandboxed runs in `workspace` reach `host` (`*` for any) through the proxy."""
        name = host.strip().lower()
        if not name or any(c.isspace() for c in name):
            raise GrantsError(f"{host!r} is not a host name")
        return self.add(Grant(HOST_GRANT + name, "./", workspace), remember=remember)

    def hosts(self, workspace: Path) -> list[str]:
        """The hosts granted to sandboxed runs in `workspace`."""
        return [g.command.removeprefix(HOST_GRANT) for g in self.for_workspace(workspace)
                if g.command.startswith(HOST_GRANT)]

    def revoke(self, key: str, workspace: Path | None = None) -> list[Grant]:
        """Remove the grants with this key (`cat:references/`), in one workspace or all; returns them."""

        def matches(grant: Grant) -> bool:
            return grant.key == key and (
                workspace is None
                or Path(os.path.realpath(grant.workspace)) == Path(os.path.realpath(workspace))
            )

        removed = [g for g in self.all() if matches(g)]
        if any(g.remembered for g in removed):
            self._change_file(lambda grants: [g for g in grants if not matches(g)])
        with self._lock:
            self._session = [g for g in self._session if not matches(g)]
        return removed

    def _change_file(self, change: Any) -> None:
        if self.path is None:
            raise GrantsError("this grant store keeps no file; the grant lasts for this session only")
        with self._lock:
            grants, problem = _read(self.path)
            if problem is not None:
                self.problem = problem
                raise GrantsError(problem)
            grants = change(grants)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(self.path, _render(grants))
            except OSError as exc:
                raise GrantsError(f"cannot save grants to {self.path}: {exc.strerror or exc}") from exc
            self._remembered = grants
            self.problem = None


def _without(grants: Iterable[Grant], grant: Grant) -> list[Grant]:
    return [g for g in grants if not (g.key == grant.key and g.workspace == grant.workspace)]


def _read(path: Path) -> tuple[list[Grant], str | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], None
    except (OSError, UnicodeDecodeError) as exc:
        return [], f"cannot read the grants file {path}: {exc}; fix or remove it"
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        reason = getattr(exc, "problem", None) or str(exc)
        return [], (
            f"the grants file {path} is not valid YAML{where} ({reason}); fix it by hand "
            "(it is left untouched) and remembered grants apply again"
        )
    if data is None:
        return [], None
    entries = data.get("grants") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return [], (
            f"the grants file {path} must hold a mapping with a `grants:` list; fix it by hand "
            "(it is left untouched)"
        )
    grants: list[Grant] = []
    problems: list[str] = []
    for number, entry in enumerate(entries, start=1):
        try:
            grants.append(_entry(entry))
        except ValueError as exc:
            problems.append(f"entry {number}: {exc}")
    if problems:
        return grants, (
            f"the grants file {path} has entries that cannot be used ({'; '.join(problems)}); "
            "the others apply, and the file is left untouched until you fix it"
        )
    return grants, None


def _entry(entry: object) -> Grant:
    if not isinstance(entry, dict):
        raise ValueError("each grant must be a mapping with command, folder and workspace")
    command, folder, workspace = entry.get("command"), entry.get("folder"), entry.get("workspace")
    if not isinstance(command, str) or not command.strip():
        raise ValueError("`command` must be a program name such as cat or `git status`")
    if not isinstance(folder, str):
        raise ValueError(f'grant for {command!r} needs a `folder` ("./" for the whole workspace)')
    if not isinstance(workspace, str) or not os.path.isabs(os.path.expanduser(workspace)):
        raise ValueError(f"grant for {command!r} needs `workspace`, an absolute folder")
    added = entry.get("added")
    return Grant(
        command.strip(),
        normalize_folder(folder),
        Path(os.path.expanduser(workspace)),
        str(added) if added is not None else "",
        True,
    )


def _render(grants: Sequence[Grant]) -> str:
    entries = [
        {"command": g.command, "folder": g.folder, "workspace": str(g.workspace), "added": g.added}
        for g in grants
    ]
    body = yaml.safe_dump({"version": 1, "grants": entries}, sort_keys=False, allow_unicode=True)
    return _HEADER + body

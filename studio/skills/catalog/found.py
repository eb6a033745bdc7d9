"""Finding every skill any client might load for a project and a user: the SKILL.md files in each
skills folder a record of the client registry reads or installs into, with what the rules judge
by.

Each SKILL.md is parsed once (studio.skills.parse); what a client decides about it is
studio.skills.catalog.effective's business.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.skills.clients import RECORDS, SkillFolder
from studio.skills.files import SKIPPED_DIRS
from studio.skills.model import SKILL_FILE, Skill
from studio.skills.parse import parse_skill

BOM = b"\xef\xbb\xbf"
# Deeper than any client reads (Codex's 6), so a skill too deep is found and reported.
MAX_WALK_DEPTH = 8
MAX_FOLDERS_WALKED = 5000
# Nested `.claude/skills` folders are looked for this deep in the project.
MAX_NESTED_DEPTH = 6


@dataclass(frozen=True, slots=True)
class Read:
    """What the rules judge a SKILL.md by, kept instead of its parse (whose text and body made
    a catalog of 100,000 skills hold gigabytes).

    Attributes:
        path: the SKILL.md file.
        dir_name: its folder's name.
        fields: the frontmatter's fields ({} without one).
        has_frontmatter: whether it has frontmatter that parses.
        has_body: whether its instructions (after the frontmatter) hold more than blanks.
    """

    path: Path
    dir_name: str
    fields: dict[str, Any]
    has_frontmatter: bool
    has_body: bool

    @classmethod
    def of(cls, skill: Skill) -> Read:
        return cls(skill.path, skill.dir_name, skill.fields, skill.frontmatter is not None,
                   bool(skill.body.strip()))


@dataclass(frozen=True, slots=True)
class Found:
    """A SKILL.md in a skills folder.

    Attributes:
        folder: the skills folder it was found under (resolved).
        scope: that folder's scope.
        depth: folders between `folder` and SKILL.md (1 for `folder/NAME/SKILL.md`).
        order: its folder's place in a breadth-first walk of `folder` (0 for the first).
        hidden: whether a folder on the way starts with a dot.
        bom: whether the file starts with a UTF-8 byte-order mark.
        skill: what of the file the rules judge by.
        nested_in: for a nested `.claude/skills` (Claude Code), the folder holding `.claude`,
            relative to the project; "" otherwise.
    """

    folder: Path
    scope: str
    depth: int
    order: int
    hidden: bool
    bom: bool
    skill: Read
    nested_in: str = ""

    @property
    def path(self) -> Path:
        return self.skill.path

    @property
    def name(self) -> str:
        value = self.skill.fields.get("name")
        return value.strip() if isinstance(value, str) and value.strip() else self.skill.dir_name


def known_folders() -> list[SkillFolder]:
    """Every skills folder some client reads or installs into, each once, in the registry's
    order."""
    folders: list[SkillFolder] = []
    for record in RECORDS:
        folders.extend(record.skill_folders)
        folders.extend(folder for folder in (record.install_folder(False),
                                             record.install_folder(True)) if folder is not None)
    return list(dict.fromkeys(folders))


def _read(path: Path, folder: Path, scope: str, depth: int, order: int, hidden: bool,
          nested_in: str = "") -> Found | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(1_048_577)
    except OSError:
        return None
    skill = Read.of(parse_skill(data, path))
    return Found(folder, scope, depth, order, hidden, data.startswith(BOM), skill, nested_in)


def walk(folder: Path, scope: str, nested_in: str = "") -> list[Found]:
    """The SKILL.md files under `folder`, breadth first, not going into a skill's own folders."""
    found: list[Found] = []
    queue: deque[tuple[Path, int, bool]] = deque([(folder, 0, False)])
    order = 0
    while queue and order < MAX_FOLDERS_WALKED:
        current, depth, hidden = queue.popleft()
        try:
            entries = sorted(os.scandir(current), key=lambda entry: entry.name)
        except OSError:
            continue
        names = {entry.name for entry in entries}
        if SKILL_FILE in names and (current != folder or depth == 0):
            item = _read(current / SKILL_FILE, folder, scope, depth, order, hidden, nested_in)
            order += 1
            if item is not None:
                found.append(item)
            if current != folder:
                continue
        else:
            order += 1
        if depth >= MAX_WALK_DEPTH:
            continue
        for entry in entries:
            if entry.name in SKIPPED_DIRS or not entry.is_dir():
                continue
            queue.append((Path(entry.path), depth + 1, hidden or entry.name.startswith(".")))
    return found


def nested_claude_folders(project: Path) -> Iterable[tuple[Path, str]]:
    """Each `.claude/skills` below the project's own (Claude Code reads them when it works on
    files there), with the folder holding it relative to the project."""
    queue: deque[tuple[Path, int]] = deque([(project, 0)])
    while queue:
        current, depth = queue.popleft()
        try:
            entries = sorted(os.scandir(current), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if not entry.is_dir(follow_symlinks=False) or entry.name in SKIPPED_DIRS:
                continue
            if entry.name.startswith("."):
                continue
            below = Path(entry.path)
            if (below / ".claude" / "skills").is_dir():
                yield below / ".claude" / "skills", below.relative_to(project).as_posix()
            if depth + 1 < MAX_NESTED_DEPTH:
                queue.append((below, depth + 1))


def find_all(project: Path | None, home: Path, env: Mapping[str, str],
             nested: bool = True, system: Path = Path("/")) -> list[Found]:
    """Every SKILL.md in every known skills folder of the project, the user and the system
    (`system` stands for `/`; a folder that two scopes share, as a project in the home, is
    walked once)."""
    found: list[Found] = []
    seen: set[Path] = set()
    for folder in known_folders():
        place = folder.resolve(project, home, env, system)
        if place is None:
            continue
        key = Path(os.path.realpath(place))
        if key in seen or not place.is_dir():
            continue
        seen.add(key)
        found.extend(walk(place, folder.scope))
    if nested and project is not None:
        for place, holder in nested_claude_folders(project):
            found.extend(walk(place, "project", nested_in=holder))
    return found


__all__ = ["BOM", "Found", "find_all", "known_folders", "walk"]

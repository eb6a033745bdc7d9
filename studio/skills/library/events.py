"""What the library tells its listeners: small events naming what changed (rows added, removed or
changed in a root; roots added, removed or judged for another client), so a Qt model adapts the
`Library` without keeping a copy. Other packages take them as one namespace (`from
studio.skills.library import events`, then `events.SkillsAdded`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.skills.scan.roots import SkillRoot
from studio.skills.summary import SkillSummary


@dataclass(frozen=True, slots=True)
class RootAdded:
    row: int
    root: SkillRoot


@dataclass(frozen=True, slots=True)
class RootRemoved:
    row: int
    root: SkillRoot
    skills: tuple[SkillSummary, ...]


@dataclass(frozen=True, slots=True)
class RootChanged:
    """The root's scanning state or error changed."""

    row: int
    root: SkillRoot


@dataclass(frozen=True, slots=True)
class TargetChanged:
    """The root's skills are now judged for another client; they are being validated again."""

    row: int
    root: SkillRoot
    target: str


@dataclass(frozen=True, slots=True)
class SkillsAdded:
    """`summaries` were appended to the root's skills, from row `first` on."""

    root: Path
    first: int
    summaries: tuple[SkillSummary, ...]


@dataclass(frozen=True, slots=True)
class SkillsRemoved:
    """The root's rows `first` .. `first + len(summaries) - 1` were removed."""

    root: Path
    first: int
    summaries: tuple[SkillSummary, ...]


@dataclass(frozen=True, slots=True)
class SkillChanged:
    """The skill at `row` of the root is now `new` (its folder may have changed: a rename)."""

    root: Path
    row: int
    old: SkillSummary
    new: SkillSummary


@dataclass(frozen=True, slots=True)
class SkillsReplaced:
    """Skills of the root were judged again in place (a refresh): the one at `rows[i]` is now
    `new[i]` instead of `old[i]`. One event for a whole batch: listeners that count or list the
    library then do so once per batch, not once per skill."""

    root: Path
    rows: tuple[int, ...]
    old: tuple[SkillSummary, ...]
    new: tuple[SkillSummary, ...]


@dataclass(frozen=True, slots=True)
class EditingChanged:
    """The live problems of the skill open in an editor at `directory` changed or went away."""

    directory: Path


LibraryEvent = (RootAdded | RootRemoved | RootChanged | TargetChanged | SkillsAdded | SkillsRemoved
                | SkillChanged | SkillsReplaced | EditingChanged)
Listener = Callable[[LibraryEvent], None]

"""One skill as a client sees it: the rows of the effective catalog."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from studio.skills.catalog.found import Found

State = Literal["loaded", "shadowed", "disabled", "not-loaded", "unknown"]
STATES: tuple[State, ...] = ("loaded", "shadowed", "disabled", "not-loaded", "unknown")


@dataclass(slots=True)
class Entry:
    """One skill as a client sees it.

    Attributes:
        name: the name the client gives it (`<dir>:<name>` for a nested Claude Code skill whose
            name another already has).
        state: loaded, shadowed, disabled, not-loaded, or unknown (no source says).
        why: what decided the state ("" for a plainly loaded skill).
        description_shown: the description as the client lists it ("" when not listed).
        rank: its folder's place in the client's folders (for ordering; past the end when the
            client does not read the folder).
    """

    name: str
    path: Path
    state: State
    why: str
    description_shown: str
    scope: str
    rank: int
    found: Found = field(repr=False)

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "path": str(self.path), "state": self.state, "why": self.why,
                "description_shown": self.description_shown}


__all__ = ["STATES", "Entry", "State"]

"""A SKILL.md's frontmatter as YAML: loading it (libyaml, or the plain reader for the common
shapes), editing one field while keeping every other byte, and offsets to lines and columns.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.yaml import yamledit

__all__ = [
    "yamledit",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

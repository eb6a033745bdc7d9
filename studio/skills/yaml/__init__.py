"""A SKILL.md's frontmatter as YAML: loading it (libyaml, or the plain reader for the common
shapes), editing one field while keeping every other byte, and offsets to lines and columns.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`).

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.yaml.plainyaml import read_plain
    from studio.skills.yaml.yamledit import apply_edits, field_block, newline_of, replace_value, scalar

__all__ = [
    "apply_edits",
    "field_block",
    "newline_of",
    "read_plain",
    "replace_value",
    "scalar",
]


def __getattr__(name: str) -> object:
    # The loader is imported here, not above, so that importing a module inside (as the scan
    # process does) imports nothing more.
    from studio.frontdoor import load

    return load(__name__, name)

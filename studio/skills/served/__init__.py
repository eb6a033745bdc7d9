"""Skills served by MCP servers (the Skills extension, SEP-2640): `--skills mcp+http://...` and
`--skills 'mcp+stdio:COMMAND ARGS'` listed, consented to, fetched, verified file by file against
their manifest, and kept as a read-only archive in the cache that every command reads like a zip.

A door of four names: `resolve_roots` turns skill values (paths and servers) into `Roots`, which
say what each server gave and drop served skills a local one shadows; `is_served` tells a server's
address from a path; `ServedSkill` is what the user is asked about. Other packages import from
this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.served.manifest import ServedSkill
    from studio.skills.served.resolve import Roots, resolve_roots
    from studio.skills.served.source import is_served

__all__ = [
    "Roots",
    "ServedSkill",
    "is_served",
    "resolve_roots",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

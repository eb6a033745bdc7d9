"""Skills served by MCP servers (the Skills extension, SEP-2640): `--skills mcp+http://...` and
`--skills 'mcp+stdio:COMMAND ARGS'` listed, consented to, fetched, verified file by file against
their manifest, and kept as a read-only archive in the cache that every command reads like a zip.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.served.consent import Consents
    from studio.skills.served.manifest import Limits, ServedFile, ServedSkill
    from studio.skills.served.resolve import (
        Ask,
        Opened,
        Roots,
        drop_shadowed,
        open_served,
        open_served_async,
        resolve_roots,
        resolve_roots_async,
    )
    from studio.skills.served.source import ServedError, ServedSource, is_served, parse_served

__all__ = [
    "Ask",
    "Consents",
    "Limits",
    "Opened",
    "Roots",
    "ServedError",
    "ServedFile",
    "ServedSkill",
    "ServedSource",
    "drop_shadowed",
    "is_served",
    "open_served",
    "open_served_async",
    "parse_served",
    "resolve_roots",
    "resolve_roots_async",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

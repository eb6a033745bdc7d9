"""Finding the skills below roots and validating them, fast: the walk, the scan (in worker
processes, with a cache keyed by stamps), the window's scan process and its client, and the
facts of paths a library needs (links to a skill, paths inside a zip, a skill's entries).

A door of few names: `scan` for paths on a command line, the `ScanCache`, and a `ScanClient`
that owns the scan process's protocol (its command line in, typed events out). How a scan
encodes a skill stays inside. Other packages import from this front door only (see
`studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.scan import listing
    from studio.skills.scan.cache import ScanCache
    from studio.skills.scan.client import RootScanned, ScanClient, SkillsFound
    from studio.skills.scan.entries import ScannedSkill
    from studio.skills.scan.headers import collect_headers
    from studio.skills.scan.links import links_to
    from studio.skills.scan.roots import (
        SkillRoot,
        duplicate_warning,
        env_roots,
        standard_locations,
    )
    from studio.skills.scan.stamps import Stamp, unchanged
    from studio.skills.scan.targets import Collected, scan, scan_pieces
    from studio.skills.scan.walk import discover
    from studio.skills.scan.zippath import enclosing_zip

__all__ = [
    "Collected",
    "RootScanned",
    "ScanCache",
    "ScanClient",
    "ScannedSkill",
    "SkillRoot",
    "SkillsFound",
    "Stamp",
    "collect_headers",
    "discover",
    "duplicate_warning",
    "enclosing_zip",
    "env_roots",
    "links_to",
    "listing",
    "scan",
    "scan_pieces",
    "standard_locations",
    "unchanged",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

"""A library of skills: its roots, skills and findings in a Qt-free `Library` that tells
listeners what changed (its `events`), and skills in archives (unpacked to run their scripts).
Scanning lives in `studio.skills.scan`, fixes applied on disk in `studio.skills.checks`, the
clients' toggle files in `studio.skills.toggles`.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.library import events
    from studio.skills.library.archive import ArchiveError
    from studio.skills.library.collection import Library, Problem, RootState
    from studio.skills.library.unzipped import UnpackedSkills

__all__ = [
    "ArchiveError",
    "Library",
    "Problem",
    "RootState",
    "UnpackedSkills",
    "events",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

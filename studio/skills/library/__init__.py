"""A library of skills: roots walked for skills, scanned (in a child process, with a cache),
kept in a Qt-free `Library` that tells listeners what changed; archives and zipped skills; the
fixes applied to skills on disk.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.library.archive import ArchiveError
    from studio.skills.library.cache import STAMP, ScanCache
    from studio.skills.library.collection import (
        Library,
        LibraryEvent,
        Problem,
        RootAdded,
        RootChanged,
        RootRemoved,
        RootState,
        SkillChanged,
        SkillsAdded,
        SkillsRemoved,
        SkillsReplaced,
        TargetChanged,
    )
    from studio.skills.library.entries import decode, encode
    from studio.skills.library.fixes import (
        FixError,
        FixPlan,
        apply_fix_to_text,
        apply_plan,
        fixes_json,
        outside_root,
        plan_fixes,
        reparse,
        unplanned_change,
    )
    from studio.skills.library.headers import HEADERS, collect_headers
    from studio.skills.library.links import links_to
    from studio.skills.library.listing import STANDARD_FOLDERS, Entry, skill_entries
    from studio.skills.library.roots import (
        SkillRoot,
        duplicate_warning,
        env_roots,
        scan_library,
        scan_root,
        standard_locations,
        validate_folders,
    )
    from studio.skills.library.scan_process import read_frames
    from studio.skills.library.stamps import Stamp, unchanged
    from studio.skills.library.targets import Collected, collect, collect_entries
    from studio.skills.library.toggles import ToggleError, ToggleState, project_of, set_enabled, skill_states
    from studio.skills.library.unzipped import UnpackedSkills
    from studio.skills.library.walk import discover, walk_skills
    from studio.skills.library.zippath import enclosing_zip

__all__ = [
    "HEADERS",
    "STAMP",
    "STANDARD_FOLDERS",
    "ArchiveError",
    "Collected",
    "Entry",
    "FixError",
    "FixPlan",
    "Library",
    "LibraryEvent",
    "Problem",
    "RootAdded",
    "RootChanged",
    "RootRemoved",
    "RootState",
    "ScanCache",
    "SkillChanged",
    "SkillRoot",
    "SkillsAdded",
    "SkillsRemoved",
    "SkillsReplaced",
    "Stamp",
    "TargetChanged",
    "ToggleError",
    "ToggleState",
    "UnpackedSkills",
    "apply_fix_to_text",
    "apply_plan",
    "collect",
    "collect_entries",
    "collect_headers",
    "decode",
    "discover",
    "duplicate_warning",
    "enclosing_zip",
    "encode",
    "env_roots",
    "fixes_json",
    "links_to",
    "outside_root",
    "plan_fixes",
    "project_of",
    "read_frames",
    "reparse",
    "scan_library",
    "scan_root",
    "set_enabled",
    "skill_entries",
    "skill_states",
    "standard_locations",
    "unchanged",
    "unplanned_change",
    "validate_folders",
    "walk_skills",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

"""The skill core: model, parsing, validation, fixes, scans, library and catalog. No Qt here.

The front door of its vocabulary: other packages import what the top-level modules hold (a
`Skill`, its `SkillSummary`, its files, its findings, parsing a SKILL.md, the clients' keys)
from here; every finding's code by name from `studio.skills.codes` (`from studio.skills import
codes`: a module of constants, those docs/codes.md lists); and what a sub-package does from
that sub-package's door (`studio.skills.checks`, `.scan`, `.library`, `.install`, `.search`,
`.yaml`), never from the modules inside (an import-linter contract keeps it so). Names load on
first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills import toggles
    from studio.skills.clients import SPEC, TARGETS, client_key
    from studio.skills.files import (
        NotRegularFile,
        list_skill_files,
        load_skill,
        load_zip_skills,
        open_regular,
        skill_file_in,
        walks_into,
    )
    from studio.skills.model import SKILL_FILE, Diagnostic, Severity, Skill, SkillFile
    from studio.skills.parse import parse_skill
    from studio.skills.summary import SkillSummary, flag

__all__ = [
    "SKILL_FILE",
    "SPEC",
    "TARGETS",
    "Diagnostic",
    "NotRegularFile",
    "Severity",
    "Skill",
    "SkillFile",
    "SkillSummary",
    "client_key",
    "flag",
    "list_skill_files",
    "load_skill",
    "load_zip_skills",
    "open_regular",
    "parse_skill",
    "skill_file_in",
    "toggles",
    "walks_into",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

"""The skill core: model, parsing, validation, fixes, library and catalog. No Qt here.

The front door of its vocabulary: other packages import what the top-level modules hold (a
`Skill`, its files, its findings and their codes, parsing a SKILL.md) from here, and what a
sub-package does from that sub-package's door (`studio.skills.checks`, `.library`, `.install`,
`.search`, `.yaml`), never from the modules inside (an import-linter contract keeps it so).
Names load on first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.clients import SPEC, TARGETS
    from studio.skills.codes import (
        BINARY,
        CANNOT_READ,
        FOLDER_UNREADABLE,
        NOT_UTF8,
        TOO_LARGE,
        UNCLOSED_FRONTMATTER,
    )
    from studio.skills.files import (
        NotRegularFile,
        list_skill_files,
        load_skill,
        load_zip_skills,
        open_regular,
        skill_file_in,
        walks_into,
    )
    from studio.skills.model import LOWERCASE_SKILL_FILE, SKILL_FILE, Diagnostic, Severity, Skill, SkillFile
    from studio.skills.parse import parse_skill
    from studio.skills.summary import SkillSummary, flag

__all__ = [
    "BINARY",
    "CANNOT_READ",
    "FOLDER_UNREADABLE",
    "LOWERCASE_SKILL_FILE",
    "NOT_UTF8",
    "SKILL_FILE",
    "SPEC",
    "TARGETS",
    "TOO_LARGE",
    "UNCLOSED_FRONTMATTER",
    "Diagnostic",
    "NotRegularFile",
    "Severity",
    "Skill",
    "SkillFile",
    "SkillSummary",
    "flag",
    "list_skill_files",
    "load_skill",
    "load_zip_skills",
    "open_regular",
    "parse_skill",
    "skill_file_in",
    "walks_into",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

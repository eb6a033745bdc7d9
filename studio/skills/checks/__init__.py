"""What makes a skill valid or worth a warning: the rules (spec, body, evals, threats), the
clients and the fields each reads, names, the eval files' format the rules check, and applying
the rules' fixes to skills on disk.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.checks import clients, evalfiles, fixes, names, openai_yaml
    from studio.skills.checks.evalrules import evals_problems, triggers_problems
    from studio.skills.checks.rules import MAX_COMPATIBILITY, MAX_DESCRIPTION
    from studio.skills.checks.threats import text_threats
    from studio.skills.checks.validate import ValidationResult, validate_skill
    from studio.skills.checks.vendors import vendor_installer

__all__ = [
    "MAX_COMPATIBILITY",
    "MAX_DESCRIPTION",
    "ValidationResult",
    "clients",
    "evalfiles",
    "evals_problems",
    "fixes",
    "names",
    "openai_yaml",
    "text_threats",
    "triggers_problems",
    "validate_skill",
    "vendor_installer",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

"""What makes a skill valid or worth a warning: the rules (spec, body, evals, threats), the
clients and the fields each reads, names, and the eval files' format the rules check.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`).

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.checks.clients import CLIENTS, FORK_MODES, MAPPING, SPEC, TARGETS, FieldKind
    from studio.skills.checks.evalfiles import (
        CHECK_KINDS,
        EVALS_FILE,
        MAX_PATTERN,
        TRIGGERS_FILE,
        EvalCase,
        EvalFileError,
        Expectation,
        TriggerQuery,
        load_json,
        read_evals,
        read_triggers,
    )
    from studio.skills.checks.evalrules import evals_problems, triggers_problems
    from studio.skills.checks.names import (
        MAX_NAME_LENGTH,
        is_valid_name,
        name_problems,
        normalize,
        suggest_name,
    )
    from studio.skills.checks.openai_yaml import OPENAI_YAML, describe, read_openai_yaml
    from studio.skills.checks.rules import MAX_COMPATIBILITY, MAX_DESCRIPTION
    from studio.skills.checks.threats import script_threats, threat_report
    from studio.skills.checks.validate import ValidationResult, validate_skill

__all__ = [
    "CHECK_KINDS",
    "CLIENTS",
    "EVALS_FILE",
    "FORK_MODES",
    "MAPPING",
    "MAX_COMPATIBILITY",
    "MAX_DESCRIPTION",
    "MAX_NAME_LENGTH",
    "MAX_PATTERN",
    "OPENAI_YAML",
    "SPEC",
    "TARGETS",
    "TRIGGERS_FILE",
    "EvalCase",
    "EvalFileError",
    "Expectation",
    "FieldKind",
    "TriggerQuery",
    "ValidationResult",
    "describe",
    "evals_problems",
    "is_valid_name",
    "load_json",
    "name_problems",
    "normalize",
    "read_evals",
    "read_openai_yaml",
    "read_triggers",
    "script_threats",
    "suggest_name",
    "threat_report",
    "triggers_problems",
    "validate_skill",
]


def __getattr__(name: str) -> object:
    # The loader is imported here, not above, so that importing a module inside (as the scan
    # process does) imports nothing more.
    from studio.frontdoor import load

    return load(__name__, name)

"""What makes a skill valid or worth a warning: the rules (spec, body, evals, threats), the
clients and the fields each reads, names, the eval files' format the rules check, and applying
the rules' fixes to skills on disk.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.checks.clients import CLIENTS, FORK_MODES, MAPPING, FieldKind
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
    from studio.skills.checks.fixes import (
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
    from studio.skills.checks.names import (
        MAX_NAME_LENGTH,
        is_valid_name,
        name_problems,
        normalize_name,
        suggest_name,
    )
    from studio.skills.checks.openai_yaml import OPENAI_YAML, describe, read_openai_yaml
    from studio.skills.checks.rules import MAX_COMPATIBILITY, MAX_DESCRIPTION
    from studio.skills.checks.threats import text_threats
    from studio.skills.checks.validate import ValidationResult, validate_skill
    from studio.skills.checks.vendors import vendor_installer

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
    "TRIGGERS_FILE",
    "EvalCase",
    "EvalFileError",
    "Expectation",
    "FieldKind",
    "FixError",
    "FixPlan",
    "TriggerQuery",
    "ValidationResult",
    "apply_fix_to_text",
    "apply_plan",
    "describe",
    "evals_problems",
    "fixes_json",
    "is_valid_name",
    "load_json",
    "name_problems",
    "normalize_name",
    "outside_root",
    "plan_fixes",
    "read_evals",
    "read_openai_yaml",
    "read_triggers",
    "reparse",
    "suggest_name",
    "text_threats",
    "triggers_problems",
    "unplanned_change",
    "validate_skill",
    "vendor_installer",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)

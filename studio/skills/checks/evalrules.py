"""Checks of a skill's eval files (skill-creator's evals/evals.json and evals/triggers.json).

A broken eval file does not stop a client from loading the skill, so these are warnings; they
stop `studio eval` until fixed, and say where.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from studio.skills.checks.evalfiles import (
    EVALS_FILE,
    TRIGGERS_FILE,
    EvalFileError,
    load_json,
    parse_evals,
    parse_triggers,
)
from studio.skills.model import Diagnostic, Severity, Skill

BAD_EVALS = "EV001"
BAD_TRIGGERS = "EV002"
OTHER_SKILL_NAME = "EV003"
MISSING_EVAL_FILE = "EV004"
ONE_SIDED_TRIGGERS = "EV005"


def _problem(code: str, error: EvalFileError) -> Diagnostic:
    message = error.detail if not error.where else f"{error.where}: {error.detail}"
    return Diagnostic(code, Severity.WARNING, f"{error.file}: {message}", error.line, error.column,
                      file=error.file)


# As a str: `EVALS_FILE.parent` makes a new path object at each call, once per skill.
_EVALS_FOLDER = str(EVALS_FILE.parent)


def eval_files_rule(skill: Skill) -> list[Diagnostic]:
    """A list, as the other rules that nearly always find nothing (see
    `studio.skills.checks.rules.Rule`)."""
    # Both files live in evals/: the listing that found the skill, or else one `stat`, tells
    # that a skill has neither, as most have.
    if skill.read_only or skill.evals_entry is False or not os.path.isdir(
        os.path.join(skill.directory, _EVALS_FOLDER)
    ):
        return []
    found: list[Diagnostic] = []
    for relative in (EVALS_FILE, TRIGGERS_FILE):
        path = skill.directory / relative
        if not path.exists():
            continue
        try:
            data = load_json(path, str(relative))
        except EvalFileError as exc:
            found.append(_problem(BAD_EVALS if relative == EVALS_FILE else BAD_TRIGGERS, exc))
            continue
        found.extend(evals_problems(data, skill.name, skill.directory) if relative == EVALS_FILE
                     else triggers_problems(data))
    return found


def evals_problems(data: Any, skill_name: str | None, directory: Path) -> Iterator[Diagnostic]:
    """The problems of an evals.json's decoded JSON (as saved, or as the window's table has it)."""
    try:
        evals = parse_evals(data)
    except EvalFileError as exc:
        yield _problem(BAD_EVALS, exc)
        return
    if evals.skill_name is not None and skill_name and evals.skill_name != skill_name:
        yield Diagnostic(OTHER_SKILL_NAME, Severity.WARNING,
                         f"{EVALS_FILE}: skill_name is {evals.skill_name!r} but the skill is "
                         f"{skill_name!r}; were these evals copied from another skill?",
                         file=str(EVALS_FILE), field="skill_name")
    for case in evals.evals:
        for relative in case.files:
            path = directory / relative
            if path.is_symlink() or not path.is_file():
                yield Diagnostic(MISSING_EVAL_FILE, Severity.WARNING,
                                 f"{EVALS_FILE}: eval {case.id} names the file {relative}, "
                                 "which is not a file in the skill's folder",
                                 file=str(EVALS_FILE))


def triggers_problems(data: Any) -> Iterator[Diagnostic]:
    """The problems of a triggers.json's decoded JSON."""
    try:
        triggers = parse_triggers(data)
    except EvalFileError as exc:
        yield _problem(BAD_TRIGGERS, exc)
        return
    if triggers:
        kinds = {query.should_trigger for query in triggers}
        if len(kinds) == 1:
            missing = "should_trigger: false" if True in kinds else "should_trigger: true"
            yield Diagnostic(ONE_SIDED_TRIGGERS, Severity.INFO,
                             f"{TRIGGERS_FILE}: no query has {missing}, so "
                             + ("precision" if True in kinds else "recall")
                             + " cannot be measured; add a few",
                             file=str(TRIGGERS_FILE))

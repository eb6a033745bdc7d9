"""Grading the structured expectations from a run's trace, without a model."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from studio.evals.trace import Trace
from studio.skills.checks import evalfiles

# With the pattern's length capped too, this bounds the work a backtracking pattern can cause.
MAX_REGEX_TEXT = 20_000


@dataclass(frozen=True, slots=True)
class Verdict:
    text: str
    passed: bool
    how: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "passed": self.passed, "how": self.how, "reason": self.reason}


def check(expectation: evalfiles.Expectation, trace: Trace) -> Verdict:
    """The verdict on a structured expectation (not a sentence: see `grader`)."""
    kind, value = expectation.kind, expectation.value
    passed, reason = _CHECKS[kind](str(value) if kind != "exit_code" else value, trace)
    return Verdict(expectation.text, passed, "trace", reason)


def _contains(text: Any, trace: Trace) -> tuple[bool, str]:
    if text in trace.answer:
        return True, "the answer contains it"
    return False, f"the answer does not contain {text!r}"


def _regex(pattern: Any, trace: Trace) -> tuple[bool, str]:
    if len(pattern) > evalfiles.MAX_PATTERN:
        return False, f"the pattern is longer than {evalfiles.MAX_PATTERN} characters"
    answer = trace.answer[:MAX_REGEX_TEXT]
    try:
        match = re.search(pattern, answer)
    except re.error as exc:
        return False, f"not a valid regular expression: {exc}"
    note = f" (only its first {MAX_REGEX_TEXT} characters were searched)" \
        if len(trace.answer) > MAX_REGEX_TEXT else ""
    if match:
        return True, f"matched {match.group(0)[:80]!r}{note}"
    return False, f"the answer does not match{note}"


def _activated(skill: Any, trace: Trace) -> tuple[bool, str]:
    if skill in trace.activated:
        return True, f"{skill} was activated"
    shown = ", ".join(trace.activated) or "none"
    return False, f"{skill} was not activated (activated: {shown})"


def _ran(script: Any, trace: Trace) -> tuple[bool, str]:
    wanted = PurePosixPath(script).as_posix()
    for command in trace.ran:
        if wanted in command:
            return True, f"ran {command!r}"
    shown = "; ".join(trace.ran) or "nothing"
    return False, f"no command ran {wanted} (ran: {shown})"


def _read(file: Any, trace: Trace) -> tuple[bool, str]:
    wanted = PurePosixPath(file).as_posix()
    for skill, path in trace.read:
        if PurePosixPath(path).as_posix() == wanted:
            return True, f"read {path} of {skill}"
    shown = ", ".join(path for _, path in trace.read) or "nothing"
    return False, f"{wanted} was not read (read: {shown})"


def _exit_code(code: Any, trace: Trace) -> tuple[bool, str]:
    if not trace.exit_codes:
        return False, "no script ran"
    last = trace.exit_codes[-1]
    if last == code:
        return True, f"the last script exited with {code}"
    return False, f"the last script exited with {last}, not {code}"


_CHECKS = {"contains": _contains, "regex": _regex, "activated": _activated, "ran": _ran,
           "read": _read, "exit_code": _exit_code}

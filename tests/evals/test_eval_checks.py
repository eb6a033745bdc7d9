"""Structured expectations graded from a run's trace, and the grader's verdict read."""

from __future__ import annotations

import pytest

from studio.agent.events import Done, TextDelta, ToolCallRequested, ToolFinished, ToolStarted
from studio.evals.checks import MAX_REGEX_TEXT, check
from studio.evals.grader import read_verdict
from studio.evals.trace import Trace
from studio.skills.checks.evalfiles import Expectation


def a_run() -> Trace:
    trace = Trace()
    for event in (
        ToolCallRequested("1", "activate_skill", {"name": "demo"}, "demo", "demo"),
        ToolFinished("1", "activate_skill", "ok", "..."),
        ToolCallRequested("2", "read_skill_file", {"skill": "demo", "path": "references/a.md"},
                          "demo", "read"),
        ToolFinished("2", "read_skill_file", "ok", "..."),
        ToolCallRequested("3", "read_skill_file", {"skill": "demo", "path": "missing.md"}, "demo", "r"),
        ToolFinished("3", "read_skill_file", "error", "no such file"),
        ToolCallRequested("4", "activate_skill", {"name": "ghost"}, "ghost", "ghost"),
        ToolFinished("4", "activate_skill", "error", "no skill"),
        ToolCallRequested("5", "run_skill_script", {"skill": "demo", "command": "python3 scripts/x.py"},
                          "demo", "run"),
        ToolStarted("5", "run_skill_script", "demo", "/s", "python3 scripts/x.py"),
        ToolFinished("5", "run_skill_script", "failed", "oops", exit_code=3),
        TextDelta("The total is 42 "), TextDelta("metres."),
        Done("answered", "The total is 42 metres.", 4),
    ):
        trace.add(event)
    return trace


@pytest.mark.parametrize(("kind", "value", "passed"), [
    ("contains", "42 metres", True),
    ("contains", "42 feet", False),
    ("regex", r"\b\d+ metres", True),
    ("regex", r"^metres", False),
    ("activated", "demo", True),
    ("activated", "ghost", False),
    ("read", "references/a.md", True),
    ("read", "missing.md", False),
    ("ran", "scripts/x.py", True),
    ("ran", "scripts/y.py", False),
    ("exit_code", 3, True),
    ("exit_code", 0, False),
])
def test_each_check_is_graded_from_the_trace(kind: str, value: str | int, passed: bool) -> None:
    verdict = check(Expectation(kind, value), a_run())
    assert (verdict.passed, verdict.how) == (passed, "trace")
    assert verdict.reason


def test_the_trace_keeps_the_rounds_and_the_outcome() -> None:
    trace = a_run()
    assert (trace.rounds, trace.outcome, trace.answer) == (4, "answered", "The total is 42 metres.")


def test_a_regex_searches_only_a_bounded_text() -> None:
    trace = Trace(answer="a" * MAX_REGEX_TEXT + "needle")
    verdict = check(Expectation("regex", "needle"), trace)
    assert not verdict.passed and "first" in verdict.reason


def test_exit_code_without_any_script_fails() -> None:
    assert not check(Expectation("exit_code", 0), Trace()).passed


@pytest.mark.parametrize(("text", "verdict", "reason"), [
    ("PASS\nThe answer greets the user.", True, "The answer greets the user."),
    ("Verdict: fail\nNo greeting.", False, "No greeting."),
    ("I think it is fine", None, "I think it is fine"),
])
def test_the_graders_verdict_and_reason_are_read(text: str, verdict: bool | None, reason: str) -> None:
    assert read_verdict(text) == (verdict, reason)

"""Grading a sentence expectation with a model: the verdict and the grader's reason are kept."""

from __future__ import annotations

import re
from typing import Any

from studio.evals.checks import Verdict
from studio.evals.replies import answer_text
from studio.evals.trace import Trace
from studio.llm import ChatClient, Message

# The transcript shown to the grader; a small model's context is a few thousand tokens.
MAX_SHOWN = 6_000
GRADER_SYSTEM = (
    "You grade whether an assistant's work meets one expectation. Answer with a first line "
    "that is exactly PASS or FAIL, then one sentence saying why."
)
_VERDICT = re.compile(r"\b(PASS|FAIL)\b")


def grader_prompt(expectation: str, prompt: str, trace: Trace) -> str:
    steps = [f"- activated skill {name}" for name in trace.activated]
    steps += [f"- read {path} of {skill}" for skill, path in trace.read]
    steps += [f"- ran `{command}`" for command in trace.ran]
    answer = trace.answer[:MAX_SHOWN]
    return (
        f"The user asked:\n{prompt[:MAX_SHOWN]}\n\n"
        f"What the assistant did:\n{chr(10).join(steps) or '- no tools'}\n\n"
        f"The assistant's answer:\n{answer or '(no answer)'}\n\n"
        f"Expectation: {expectation}\n\nDoes the work meet the expectation? PASS or FAIL?"
    )


def read_verdict(text: str) -> tuple[bool | None, str]:
    """The grader's verdict (None when it gave none) and its reason."""
    match = _VERDICT.search(text.upper())
    reason = text.strip()
    if match is None:
        return None, reason
    lines = reason.splitlines()
    rest = " ".join(line.strip() for line in lines[1:] if line.strip())
    return match.group(1) == "PASS", rest or reason


async def grade(client: ChatClient, model: str, expectation: str, prompt: str, trace: Trace,
                options: dict[str, Any] | None = None) -> Verdict:
    messages = [Message("system", GRADER_SYSTEM),
                Message("user", grader_prompt(expectation, prompt, trace))]
    passed, reason = read_verdict(await answer_text(client, model, messages, options))
    if passed is None:
        return Verdict(expectation, False, "model",
                       f"the grader gave no PASS or FAIL: {reason[:200]!r}")
    return Verdict(expectation, passed, "model", reason)

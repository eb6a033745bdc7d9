"""A model judge's answer, read as the untrusted input it is, and what it adds to a skill's scan.

The answer must be one JSON object (a Markdown code fence around it is taken off) with a verdict
from a closed set, a reason, and evidence: passages quoted from the skill, each of which must be
found in the text the model was shown. Anything else (no JSON, another verdict, a quote the skill
does not hold, an answer cut off for length) is recorded as "no usable verdict" (SK526, info) and
the rules' findings stand alone: never a crash, never a silent pass.

A usable verdict can only add: `malicious` adds SK525 at `high` when its evidence is quoted from
the skill (`medium` without), `suspicious` adds SK525 at `medium`, `benign` adds nothing. No verdict
removes or lowers a rule's finding, so a skill that talks the model into "benign" keeps every
finding the rules gave it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from studio.skills import codes
from studio.textshow import shown
from studio.threatscan.findings import Finding, excerpt
from studio.threatscan.judge import SKILL_FILE, VERDICTS, JudgeRequest

JUDGE_VERDICT = codes.JUDGE_VERDICT
JUDGE_NO_VERDICT = codes.JUDGE_NO_VERDICT
MOST_QUOTES = 5
# (severity, confidence) of SK525 by verdict and whether its evidence was quoted: a local model's
# word is a lead, surer when it points at lines of the skill that say what it claims.
_RANKED = {
    ("malicious", True): ("high", 0.6), ("malicious", False): ("medium", 0.4),
    ("suspicious", True): ("medium", 0.4), ("suspicious", False): ("medium", 0.3),
}
_FENCE = re.compile(r"\A```[a-zA-Z]*\s*\n(.*?)\s*```\Z", re.DOTALL)
_THINKING = re.compile(r"\A<think>.*?</think>\s*", re.DOTALL)


@dataclass(frozen=True)
class JudgeOutcome:
    """What the judge said of one skill: `verdict` None when it gave no usable one, `reason` its
    reason (or why its answer was not usable), and the finding it adds, if any."""

    verdict: str | None
    reason: str
    shown_chars: int
    total_chars: int
    finding: Finding | None = None

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "reason": self.reason, "shown_chars": self.shown_chars,
                "total_chars": self.total_chars}


@dataclass
class JudgeRun:
    """A scan's judge, for the report's metadata: the model (as its server names it), the
    backend, how many skills it judged of how many, and why it stopped early ("" when it did
    not; `interrupted` when the user stopped it)."""

    model: str
    backend: str
    skills: int
    judged: int = 0
    stopped: str = ""
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "backend": self.backend, "skills": self.skills,
                "judged": self.judged, "stopped": self.stopped or None,
                "interrupted": self.interrupted}


def read_verdict(answer: str, request: JudgeRequest) -> JudgeOutcome:
    """The outcome of the model's `answer` to `request` (see the module's docstring)."""
    if len(answer) > request.max_answer_chars:
        return no_verdict(request, f"its answer ran past {request.max_answer_chars:,} characters "
                          "and was stopped", answer)
    text = _THINKING.sub("", answer.strip()).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text:
        return no_verdict(request, "its answer was empty", answer)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return no_verdict(request, "its answer is not one JSON object", answer)
    if not isinstance(value, dict):
        return no_verdict(request, "its answer is not a JSON object", answer)
    verdict = value.get("verdict")
    if not isinstance(verdict, str) or verdict.strip().lower() not in VERDICTS:
        return no_verdict(request, f"its verdict {_quoted(verdict)} is not one of "
                          f"{', '.join(VERDICTS)}", answer)
    verdict = verdict.strip().lower()
    reason = value.get("reason")
    if not isinstance(reason, str):
        return no_verdict(request, "its answer gives no reason", answer)
    quotes = value.get("evidence") or []
    if not isinstance(quotes, list) or not all(isinstance(q, str) for q in quotes):
        return no_verdict(request, "its evidence is not a list of quoted passages", answer)
    places: list[tuple[str, int, int, str]] = []
    for quote in [q for q in quotes if q.strip()][:MOST_QUOTES]:
        place = _find(quote, request)
        if place is None:
            return no_verdict(request, f"it quoted {_quoted(quote)}, which is not in the "
                              "skill's text it was shown", answer)
        places.append((*place, quote))
    said = shown(excerpt(reason, 240)) or "no reason given"
    if verdict == "benign":
        return JudgeOutcome(verdict, said, request.shown_chars, request.total_chars)
    severity, confidence = _RANKED[(verdict, bool(places))]
    file, line, column, quote = places[0] if places else (SKILL_FILE, 1, 1, "")
    message = f"the judge model calls this skill {verdict}: {said}{_seen(request)}"
    finding = Finding(JUDGE_VERDICT, severity, confidence, file, line, column, message,
                      shown(excerpt(quote)))
    return JudgeOutcome(verdict, said, request.shown_chars, request.total_chars, finding)


def no_verdict(request: JudgeRequest, why: str, answer: str = "") -> JudgeOutcome:
    """The outcome of an answer that gave no usable verdict: an info finding saying why."""
    message = (f"the judge model gave no usable verdict: {why}; the rules' findings stand "
               f"alone{_seen(request)}")
    finding = Finding(JUDGE_NO_VERDICT, "info", 1.0, SKILL_FILE, 1, 1, message,
                      shown(excerpt(answer)))
    return JudgeOutcome(None, why, request.shown_chars, request.total_chars, finding)


def _seen(request: JudgeRequest) -> str:
    if not request.cut:
        return ""
    return f" (it was shown {request.shown_chars:,} of the skill's {request.total_chars:,} characters)"


def _quoted(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return f"'{shown(excerpt(text, 60))}'"


def _find(quote: str, request: JudgeRequest) -> tuple[str, int, int] | None:
    """Where `quote` is in the text the model was shown (file, line, column), its spaces and line
    breaks matched loosely (a model retypes them), or None when it is in none of it."""
    words = quote.split()
    pattern = re.compile(r"\s+".join(re.escape(word) for word in words))
    for text in request.shown:
        found = pattern.search(text.text)
        if found:
            start = found.start()
            line_start = text.text.rfind("\n", 0, start) + 1
            return text.relative, text.text.count("\n", 0, start) + 1, start - line_start + 1
    return None

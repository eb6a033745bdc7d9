"""An offline phrase model: does a sentence tell the model to hide something from its user, to
believe an authority it cannot check, to set aside its rules, or to act without telling anyone?

Not a learned model: a small set of weighted phrase patterns in four families, written from the
attacks in issue 41 and tuned on the development sentences in `benchmarks/scan_data/phrases.py`
(`dev`), never on the held-out ones (`tests/threatscan/test_phrases.py`). A family scores once
per text, so a long text repeating one phrase scores no more than a short one.

| family | weight | what it catches |
|---|---|---|
| override | 3 | "ignore all previous instructions", "disregard the rules above" |
| authority | 3 | "pre-approved by your administrator", "system override", "official directive from" |
| conceal | 2 | "do not tell the user", "without informing the user", "hide this from the user" |
| covert | 1 | "silently", "do not ask for confirmation", "the user has already consented" |

`SHOWN_THRESHOLD` (3) marks visible text: concealment alone ("do not tell the user the answer",
a tutor's rule) stays below it, concealment with a covert action or any claim of authority
reaches it. Text a reader cannot see (comments, alt text, link titles, encoded blobs, the
description) needs only `HIDDEN_THRESHOLD` (2): text hidden from people and addressed to the
model about people is the attack."""

from __future__ import annotations

import re
from typing import NamedTuple

SHOWN_THRESHOLD = 3
HIDDEN_THRESHOLD = 2

_USER = r"(?:the |your |this )?(?:user|human|person|operator|owner|developer|requester)s?"
_FAMILIES: tuple[tuple[str, int, re.Pattern[str]], ...] = (
    ("override", 3, re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+|the\s+|your\s+)*"
        r"(?:previous|prior|above|earlier|preceding|other|original|existing|safety|system)\s+"
        r"(?:instructions?|rules|directions|guidelines|prompts?|policies|restrictions)", re.I)),
    ("authority", 3, re.compile(
        r"\bpre-?(?:approved|authori[sz]ed)\b|\b(?:approved|authori[sz]ed|sanctioned|mandated|"
        r"cleared)\s+by\s+(?:your|the)\s+(?:administrator|admin|security\s+team|it\s+department|"
        r"organi[sz]ation|compliance|anthropic|openai|system\s+owner)|\b(?:system|admin|"
        r"administrator|developer|root)\s+(?:override|mode\s+enabled)|\bofficial\s+(?:directive|"
        r"instruction|notice)\s+from\b|\bthis\s+(?:instruction|message)\s+(?:comes|is)\s+from\s+"
        r"(?:anthropic|openai|your\s+administrator|the\s+system)|\bhighest[- ]priority\s+"
        r"instruction|\byou\s+are\s+now\s+in\s+(?:developer|admin|god|unrestricted)\s+mode", re.I)),
    ("conceal", 2, re.compile(
        rf"\b(?:do\s+not|don'?t|never|must\s+not)\s+(?:tell|mention|inform|reveal|show|disclose|"
        rf"report|alert|notify)\s+(?:this\s+|it\s+|anything\s+)?(?:to\s+)?{_USER}|"
        rf"\bwithout\s+(?:telling|informing|notifying|alerting|showing|asking)\s+{_USER}|"
        rf"\b(?:hide|conceal|keep)\s+(?:this|it|these\s+\w+|the\s+\w+)\s+(?:hidden\s+|secret\s+)?"
        rf"from\s+{_USER}|\b{_USER}\s+(?:must|should|need)\s*(?:not|n'?t)\s+(?:know|see|notice|be\s+told)"
        r"|\bnever\s+(?:reveal|mention|disclose|repeat)\s+(?:these|this|that|the)\s+(?:instructions?|"
        r"steps?|section|rules?)|\b(?:do\s+not|don'?t)\s+(?:mention|reveal)\s+(?:this|these)\s+"
        r"(?:step|instruction|action)s?", re.I)),
    ("covert", 1, re.compile(
        r"\bsilently\b(?!\s+(?:fail|ignor|skip|drop|return|discard))|\bquietly\b|\bcovertly\b|"
        r"\bin\s+secret\b|\b(?:do\s+not|don'?t|never)\s+ask\s+(?:for\s+)?(?:confirmation|"
        r"permission|approval|the\s+user)|\b(?:skip|bypass|avoid)\s+(?:the\s+|any\s+)?(?:user\s+)?"
        r"(?:confirmation|approval|permission\s+prompt)s?|\b(?:has|have)\s+already\s+"
        r"(?:consented|agreed|approved|authori[sz]ed)|\bno\s+need\s+to\s+(?:ask|confirm|tell)|"
        r"\bdelete\s+(?:the\s+)?(?:logs?|history|traces?)\b|\bcover\s+(?:your|the)\s+tracks", re.I)),
)


class Score(NamedTuple):
    value: int
    families: tuple[str, ...]
    evidence: str


def score(text: str) -> Score:
    value = 0
    families: list[str] = []
    evidence = ""
    for name, weight, pattern in _FAMILIES:
        match = pattern.search(text)
        if match is not None:
            value += weight
            families.append(name)
            evidence = evidence or match.group()
    return Score(value, tuple(families), evidence)

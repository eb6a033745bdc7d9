"""The guided answer: a sentence held to a script's figures, and an answer after a denial.

A model that fills a schema writes a better answer than a quote of the output ("26.2 miles is
42.1648 km" rather than the script's report), but left free it may also round or invent the
figure; held by a pattern that must contain the output's own figures, in order, it cannot.
With several figures on a short line ("mean 9, median 8 of 3 numbers") it still pairs a label
with the wrong figure: the answer is that line. Without figures (a verdict, a list of names) the
answer quotes the output, as for a tiny model.

A run the user denied with a reason ("Do not run scripts; just tell me the formula.") is not
asked again: the model answers within that reason from the skill's instructions; a reply that
only says the reason back is not an answer.
"""

from __future__ import annotations

import re
from typing import Any

from studio.agent.constrained import ANSWER_KEY
from studio.agent.guided.arguments import split
from studio.agent.guided.fill import figures
from studio.skills.search import catalog

_MAX_FIGURES = 3
_LINE_CHARS = 80
"""An output's line up to this long, with several figures, is the answer as written."""
_GAP = '[^"\\\\]*'
"""Any text between the figures but a quote or a backslash, which would end the JSON string."""
_NO_FIGURE = '[^"\\\\0-9]*'
"""Any text but a figure, a quote or a backslash."""
_DENIED = re.compile(r"^denied by [^:.]+(?:: (?P<reason>.*?))?\. Do not run it another way; "
                     r"tell the user\.$", re.DOTALL)
_DENIAL_WORDS = frozenset(catalog.terms("denied do not run it another way tell the user script scripts"))
_REPEAT_SHARE = 0.8
"""An answer whose terms are at least this share the denial's says the denial back."""
_BODY_CHARS = 2000


def sentence_schema(line: str, command: str) -> dict[str, Any] | None:
    """The schema of an answer that contains the figures of the output's `line` that `command`
    did not give it (up to three, in order), or that is the line as written when it is short and
    has several (which label goes with which figure then matters: a model left to reword "mean 9,
    median 8" wrote "the mean of 9, median 8 ... is 8", and one held to contain the line wrote
    on before it to the token cap) or is only a label and its figure (`shall: 3`). One figure
    with a unit after it is written with that unit (`877 km`: a model left to say the unit wrote
    "877 kilometers", and could as well write "877 miles"), and no other figure comes before it:
    a model held to contain a phrase it has already worded otherwise writes on to the token cap,
    one held where it starts the figure writes the unit. None when the line has no figure: a
    result in words ("MMXXIV", "Thursday") is quoted, as a sentence could leave it out."""
    found = figures(line, split(command))[:_MAX_FIGURES]
    if not found:
        return None
    line = line.strip()
    held: dict[str, Any] = {"type": "string", "enum": [line]}
    if len(found) == 1 and len(line) <= _LINE_CHARS and _labelled(line, found[0]):
        pass
    elif len(found) == 1 and (unit := _unit(line, found[0])):
        held = {"type": "string", "pattern": "^" + _NO_FIGURE + _literal(found[0] + unit) + _GAP + "$"}
    elif len(found) == 1 or len(line) > _LINE_CHARS:
        held = {"type": "string", "pattern": "^" + _GAP + _GAP.join(
            _literal(f) for f in found) + _GAP + "$"}
    return {"type": "object", "properties": {ANSWER_KEY: held},
            "required": [ANSWER_KEY], "additionalProperties": False}


def _literal(text: str) -> str:
    return re.escape(text).replace("\\-", "-").replace("\\ ", " ")


def _at(line: str, figure: str) -> re.Match[str] | None:
    return re.search(r"(?<![\w.-])" + re.escape(figure) + r"(?![\w-])", line)


def _unit(line: str, figure: str) -> str:
    """The word after the figure on its line when it is a unit (` km`, ` keys`), else ""."""
    at = _at(line, figure)
    unit = re.match(r" ([A-Za-z][A-Za-z/%]{0,15})\b", line[at.end():]) if at else None
    return unit.group(0) if unit and unit.group(1).lower() not in catalog.STOP_WORDS else ""


def _labelled(line: str, figure: str) -> bool:
    """Whether the line is only a label and its figure (`shall: 3`, `total=12`)."""
    at = _at(line, figure)
    return at is not None and not line[at.end():].strip() and \
        re.fullmatch(r"[A-Za-z][\w-]{0,30}[:=] ?", line[:at.start()]) is not None


def answer_line(quotes: list[str]) -> str:
    """The line of the output an answer states: the one the request points at (the first of
    `quotes` when there are several), else the first with a figure."""
    if len(quotes) > 1:
        return quotes[0]
    lines = quotes[0].splitlines() if quotes else []
    return next((line for line in lines if figures(line)), "")


def denial_reason(result: str) -> str | None:
    """The reason the user gave when denying a run (`denied by user: REASON. Do not run it ...`);
    "" for a denial without one, None for a result that is no denial."""
    match = _DENIED.match(result.strip())
    if match is None:
        return None
    return (match.group("reason") or "").strip()


def denial_prompt(command: str, reason: str, body: str) -> str:
    """What the model is told after a denial: answer within the reason, from the instructions."""
    said = f' and said: "{reason}"' if reason else ""
    instructions = body.strip()[:_BODY_CHARS]
    return (f"The user did not allow running `{command}`{said}. Do not ask to run it again. "
            "Answer the user's question without running anything, within what the user said, "
            f"from the skill's instructions:\n{instructions}")


def repeats_denial(answer: str, reason: str) -> bool:
    """Whether `answer` only says the denial back: (nearly) all its words are the reason's or
    the denial's own."""
    said = set(catalog.terms(answer))
    if not said:
        return True
    known = set(catalog.terms(reason)) | _DENIAL_WORDS
    return len(said & known) >= _REPEAT_SHARE * len(said)

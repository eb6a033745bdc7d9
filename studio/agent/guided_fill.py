"""A guided run whose arguments the model fills under a schema built from the skill's own words.

A model of half a billion parameters can fill a small schema when asked the right question: one
property per placeholder of the usage line (`VALUE FROM TO`), each held to the values the skill
lists for it (`guided_values`: the codes `km`, `mi` where the user wrote "miles") or to its kind
(a number, a date), and the command is put together from them here, each value one argument
(a quoted phrase stays whole). A tiny model cannot (SmolLM2-135M copies the example or repeats a
value): it keeps the affinity enum of `guided_args`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection, Sequence
from typing import Any

from studio.agent.guided_args import PLACEHOLDER, Usage, affinity
from studio.agent.guided_values import Described
from studio.agent.tools import RUN
from studio.llm.types import Message, ToolCall, ToolSpec
from studio.skills.catalog import STOP_WORDS

SCRIPT_KEY = "script"
"""The property of a filled run that says which script (its start, `python3 scripts/x.py`)."""
FILL_MODEL = 300_000_000
"""Models with at least this many parameters fill a run's arguments under a schema."""
_VALUE_CHARS = 160
_SHOWN_VALUES = 40
_NOTE_CHARS = 60
_NUMBER_NAMES = frozenset({"value", "n", "num", "number", "count", "amount", "quantity", "limit",
                           "size", "digits", "top", "max", "min", "seconds", "width", "height"})
_DATE_NAMES = frozenset({"date", "day", "since", "until"})

EXAMPLE: tuple[Message, ...] = (
    Message("user", "How many words are in the file notes.txt?"),
    Message("assistant", '{"tool": "activate_skill", "arguments": {"name": "word-count"}}'),
    Message("user", "Skill word-count is loaded. Its script runs like this:\n"
                    "python3 scripts/count.py FILE\npython3 scripts/count.py report.txt\n"
                    "Fill in each word in capitals from the user's message:\n"
                    "- FILE: the text file to count"),
    Message("assistant", '{"tool": "run_skill_script", "arguments": {"skill": "word-count", '
                         '"script": "python3 scripts/count.py", "FILE": "notes.txt"}}'),
    Message("user", "Output of the command:\nnotes.txt: 120 words"),
    Message("assistant", '{"answer": "The file notes.txt has 120 words."}'),
)
"""The worked example for a model that fills the arguments: the same task, its shape."""


def filled_spec(skill: str, start: str, usage: Usage, described: Sequence[Described],
                candidates: Sequence[str]) -> ToolSpec:
    """`run_skill_script` of `skill`'s script `start` with one property per placeholder of
    `usage`: held to the values the skill lists for it, else to the `candidates` (the values
    the user's message holds: its words and quoted phrases) of its kind, else to its kind.
    A placeholder of an optional group (`[--digits N]`) may be "" (the group is left out)."""
    optional = {word for group in usage.optional for word in group if PLACEHOLDER.match(word)}
    required = set(usage.placeholders) - optional
    properties: dict[str, Any] = {"skill": {"type": "string", "enum": [skill]},
                                  SCRIPT_KEY: {"type": "string", "enum": [start]}}
    by_name = {d.name: d for d in described}
    for name in usage.placeholders:
        values = by_name[name].values if name in by_name else ()
        blank = [""] if name not in required else []
        given = _of_kind(name, candidates)
        if values:
            properties[name] = {"type": "string", "enum": [*values, *blank]}
        elif given:
            # A model shown the SKILL.md's example copies its values ("5 km mi" for "3 miles").
            properties[name] = {"type": "string", "enum": [*given, *blank]}
        else:
            # A value the message writes otherwise ("29 February 2024" for a DATE).
            properties[name] = _kind(name, name not in required)
    return ToolSpec(RUN, "", {"type": "object", "properties": properties,
                              "required": ["skill", SCRIPT_KEY, *usage.placeholders]})


def _of_kind(name: str, candidates: Sequence[str]) -> list[str]:
    # The word naming the placeholder says what the value is, not the value ("kg" for KG).
    candidates = [c for c in candidates if c.lower() != name.lower()]
    """The `candidates` of the placeholder's kind (`guided_args.affinity`: a number for VALUE, a
    path for FILE); all of them for a placeholder of no kind a pattern holds; none for a number
    or a date none of them is."""
    fitting = [c for c in candidates if affinity(name, c)]
    if fitting or set(name.lower().split("_")) & (_DATE_NAMES | _NUMBER_NAMES):
        return fitting
    return list(candidates)


def _kind(name: str, optional: bool) -> dict[str, Any]:
    words = set(name.lower().split("_"))
    # An optional value may be blank, which a kind's pattern would not allow.
    if not optional and words & _DATE_NAMES:
        return {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
    if not optional and words & _NUMBER_NAMES:
        return {"type": "string", "pattern": "^-?[0-9][0-9.,/]{0,20}$"}
    return {"type": "string", "minLength": 0 if optional else 1, "maxLength": _VALUE_CHARS}


def compose(call: ToolCall, usage: Usage) -> ToolCall:
    """The run a filled call stands for: `{"script": START, "VALUE": "10", ...}` as the command
    `START 10 ...`, each value one argument (quoted when it must be), an optional group left out
    when its placeholder is blank. The call keeps its id."""
    arguments = call.arguments
    values = {name: str(arguments.get(name, "")).strip() for name in usage.placeholders}
    words: list[str] = [str(arguments.get(SCRIPT_KEY, ""))]
    for word in usage.required:
        words.append(shlex.quote(values[word]) if PLACEHOLDER.match(word) else word)
    for group in usage.optional:
        names = [word for word in group if PLACEHOLDER.match(word)]
        if names and all(values[name] for name in names):
            words += [shlex.quote(values[w]) if PLACEHOLDER.match(w) else w for w in group]
    return ToolCall(call.id, RUN, {"skill": arguments.get("skill"), "command": " ".join(words)})


def is_filled(call: ToolCall) -> bool:
    return call.name == RUN and SCRIPT_KEY in call.arguments and "command" not in call.arguments


def fill_hint(described: Sequence[Described], usage: Usage, request: str) -> str:
    """What the model is told of each placeholder: the values it takes (with what the skill says
    of each, `mi (mile)`: the user writes "miles"), what the skill says of it, and the values the
    user's `request` names as written ("SHA-256" for `sha256`)."""
    optional = {word for group in usage.optional for word in group if PLACEHOLDER.match(word)}
    lines = ["Fill in each word in capitals from the user's message:"]
    for item in described:
        parts = []
        if item.values:
            notes = item.notes or ("",) * len(item.values)
            shown = ", ".join(f"{value} ({_short(note)})" if note else value
                              for value, note in zip(item.values[:_SHOWN_VALUES], notes, strict=False))
            more = " ..." if len(item.values) > _SHOWN_VALUES else ""
            parts.append(f"one of {shown}{more}")
            named = named_values(item.values, request)
            if named:
                parts.append(f"the message names {', '.join(named)}")
        if item.said:
            parts.append(item.said)
        if item.name in optional:
            parts.append('"" to leave it out')
        lines.append(f"- {item.name}: " + ("; ".join(parts) or "a value from the message"))
    return "\n".join(lines)


def named_values(values: Sequence[str], request: str) -> list[str]:
    """The `values` the request names as written, give or take case and punctuation ("SHA-256"
    names `sha256`, "snake_case" names `snake`)."""
    # A stop word names nothing ("are in 3 miles" does not name the code `in`).
    words = [word for word in re.findall(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*", request)
             if word.lower() not in STOP_WORDS]
    flat = {re.sub(r"[^a-z0-9]", "", word.lower()) for word in words}
    parts = {part for word in words for part in re.split(r"[-_.]", word.lower())}
    return [value for value in values
            if re.sub(r"[^a-z0-9]", "", value.lower()) in flat or value.lower() in parts]


def _short(note: str) -> str:
    return note if len(note) <= _NOTE_CHARS else note[:_NOTE_CHARS].rsplit(" ", 1)[0] + " ..."


def figures(line: str, inputs: Collection[str] = ()) -> list[str]:
    """The numbers of an output's line, as written (`42.1648`, `1,024`), but those of a date or
    a name (`2024-02-29`, `v2`) and those the command gave it (`inputs`): the result's own."""
    return [number for number in re.findall(r"(?<![\w.-])-?\d+(?:[.,]\d+)*(?![\w-])", line)
            if number not in inputs]

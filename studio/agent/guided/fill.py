"""A guided run whose arguments the model fills under a schema built from the skill's own words.

A model of half a billion parameters can fill a small schema when asked the right question: one
property per placeholder of the usage line (`VALUE FROM TO`), each held to the values the skill
lists for it (`guided.values`: the codes `km`, `mi` where the user wrote "miles") or to its kind
(a number, a date), and the command is put together from them here, each value one argument
(a quoted phrase stays whole). A tiny model cannot (SmolLM2-135M copies the example or repeats a
value): it keeps the affinity enum of `guided.arguments`.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import shlex
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from studio.agent.guided.arguments import PLACEHOLDER, Key, Usage, affinity, bare, is_json, split
from studio.agent.guided.dates import ISO, clause_of, date_format, formatted, is_date, paired, written_dates
from studio.agent.guided.values import Described
from studio.agent.toolbook import RUN
from studio.llm import Message, ToolCall, ToolSpec
from studio.skills.search import catalog

SCRIPT_KEY = "script"
"""The property of a filled run that says which script (its start, `python3 scripts/x.py`)."""
FILL_MODEL = 300_000_000
"""Models with at least this many parameters fill a run's arguments under a schema."""
_VALUE_CHARS = 160
_SHOWN_VALUES = 40
_SHORT_NOTE = 24
_EDGES = "\"'`.,;:!?()[]{}<>"
_NOTE_CHARS = 60
_NUMBER_NAMES = frozenset({"value", "n", "num", "number", "count", "amount", "quantity", "limit",
                           "size", "digits", "top", "max", "min", "seconds", "width", "height"})
_DATE_NAMES = frozenset({"date", "day", "since", "until"})
_NUMBER = re.compile(r"-\d+(?:[.,]\d+)*\Z")
_FIGURE = re.compile(r"-?\d+(?:[.,]\d+)*")
_DURATION_NAMES = frozenset({"duration", "durations", "time", "times", "period", "interval", "length"})
_DURATION = re.compile(r"(?=\d)(?:\d+h)?(?:\d+m)?(?:\d+s)?")
_MEANT_TERMS = 2
"""A value's note shares at least this many words with a message that means it."""
_FIGURE_GAP = 3
"""A value named up to this many words after a figure is the figure's ("212 degrees Fahrenheit")."""

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
                candidates: Sequence[str], request: str, numbers: Collection[str] = ()) -> ToolSpec:
    """`run_skill_script` of `skill`'s script `start` with one property per placeholder of
    `usage`: held to the values the skill lists for it (those the user's `request` names, when
    it names one for each placeholder that takes them), else to the `candidates` (the values the
    message holds: its words, quoted phrases, dates and JSON) of its kind, else to its kind. A
    listed value is offered as what the skill says of it (`mile: mi`; `choices`). A placeholder
    of an optional group (`[--digits N]`) may be "" (the group is left out), unless the message
    names it with a value ("a 20 percent tip" for `[--tip PERCENT]`). What the message states
    plainly is decided here, the model left only the choices: a value beside a word naming the
    placeholder or its option, a value another placeholder took is no other's, a repeated
    placeholder (`N [N ...]`) takes every value of its kind, and a date is written as the skill
    says. The placeholders in `numbers` (an example gives them figures) take numbers."""
    optional = {word for group in usage.optional for word in group if PLACEHOLDER.match(word)}
    optional |= usage.leavable
    numbers = {*numbers, *usage.numbers}
    required = set(usage.placeholders) - optional
    properties: dict[str, Any] = {"skill": {"type": "string", "enum": [skill]},
                                  SCRIPT_KEY: {"type": "string", "enum": [start]}}
    candidates = list(dict.fromkeys(candidates))
    by_name = {d.name: d for d in described}
    sharing = Counter(d.values for d in described if d.values)
    ordered = _ordered_pairs(usage, by_name, request)
    dated = _dated(usage, by_name, request)
    naming = _option_words(usage)
    open_values: dict[str, tuple[list[str], str]] = {}
    # A word the skill lists for one placeholder ("up" of MODE) is no open placeholder's value.
    listed = {value for item in described for value in item.values}
    for name in usage.placeholders:
        item = by_name.get(name, Described(name, "", ()))
        blank = [""] if name not in required else []
        if name in ordered:
            properties[name] = {"type": "string", "enum": [*choices(item, ordered[name]), *blank]}
        elif (units := _glued_units(item.values)) and (written := _glued(units, candidates, request)):
            properties[name] = {"type": "string", "enum": [*written, *blank]}
        elif item.values:
            named = named_values(item.values, request) or noted_values(item, request) or \
                meant_values(item, request)
            # "SHA-256" names `sha256`: the user said which; "from km to mi" names two for two.
            kept = named if named and len(named) >= sharing[item.values] else list(item.values)
            properties[name] = {"type": "string", "enum": [*choices(item, kept), *blank]}
        elif name in dated:
            properties[name] = {"type": "string", "enum": [*dated[name], *blank]}
        else:
            open_values[name] = _of_kind(name, [c for c in candidates if c not in listed], request,
                                         naming.get(name, ()), item.said, name in numbers)
    distinct = _distinct(open_values, usage.repeated)
    # A value a required placeholder alone takes is no optional one's (`--digits` of "round
    # 3.14159"; the `ml` key beside `price` and `grams`): that one is left out.
    alone = {values[0] for name, values in distinct.items()
             if (name in required or open_values[name][1] == _NEAR) and len(values) == 1}
    for name, values in distinct.items():
        how = open_values[name][1]
        # Named with a value ("a 20 percent tip"), or a repeated one the message gives values
        # of its kind (`[N]...`), an optional part is not left out.
        given = how == _NEAR or (how == _OF_KIND and name in usage.repeated and bool(values))
        blank = [""] if name not in required and not given else []
        if blank and values and not (values := [value for value in values if value not in alone]):
            properties[name] = {"type": "string", "enum": blank}
        elif values:
            # A model shown the SKILL.md's example copies its values ("5 km mi" for "3 miles").
            properties[name] = {"type": "string", "enum": [*values, *blank]}
        else:
            # A value the message writes otherwise ("29 February 2024" for a DATE).
            properties[name] = _kind(name, name not in required, name in numbers)
    # The model writes the properties in this order: the usage line's.
    properties = {key: properties[key] for key in ["skill", SCRIPT_KEY, *usage.placeholders]}
    return ToolSpec(RUN, "", {"type": "object", "properties": properties,
                              "required": ["skill", SCRIPT_KEY, *usage.placeholders]})


def allowed_commands(spec: ToolSpec, usage: Usage, described: Sequence[Described] = (),
                     limit: int = 64) -> list[str] | None:
    """Every command a filled `spec` allows, when each of its properties is held to a few
    values (at most `limit` commands); None when one is free or there are more."""
    properties = spec.parameters["properties"]
    enums = [properties[key].get("enum") for key in properties]
    if any(enum is None for enum in enums) or math.prod(len(e) for e in enums) > limit:
        return None
    keys = list(properties)
    return [compose(ToolCall("", RUN, dict(zip(keys, values, strict=True))), usage,
                    described).arguments["command"] for values in itertools.product(*enums)]


_NEAR, _OF_KIND, _ANY = "near", "kind", "any"
"""How a placeholder's values were found: beside a word naming it, by their kind, or none fits."""


def _distinct(found: dict[str, tuple[list[str], str]], repeated: Collection[str]) -> dict[str, list[str]]:
    """Each open placeholder's values, without those another placeholder alone takes (the CSV
    file named for CSV is not the COLUMN); a repeated placeholder's values of its kind as one
    choice, every one of them in the message's order (`4 8 15` for `N [N ...]`)."""
    values = {name: list(kept) for name, (kept, _) in found.items()}
    for _ in range(len(values)):
        taken = {name: kept[0] for name, kept in values.items() if len(kept) == 1}
        changed = False
        for name, kept in values.items():
            others = {value for other, value in taken.items() if other != name}
            left = [value for value in kept if value not in others]
            if left and len(left) < len(kept):
                values[name], changed = left, True
        if not changed:
            break
    # Two or more placeholders each open to all the message's figures, as many as there are:
    # they take them in the usage line's order ("round 1234 to a multiple of 100": VALUE STEP).
    figures_of = {name: [v for v in kept if _FIGURE.fullmatch(v)] for name, kept in values.items()
                  if name not in repeated}
    shared = [name for name, numbers in figures_of.items() if len(numbers) > 1]
    if len(shared) > 1 and all(set(figures_of[name]) == set(figures_of[shared[0]]) for name in shared) \
            and len(figures_of[shared[0]]) == len(shared):
        values.update({name: [figure] for name, figure in zip(shared, figures_of[shared[0]], strict=True)})
    for name in repeated:
        if name in values and found[name][1] != _ANY and values[name]:
            values[name] = [" ".join(shlex.quote(value) for value in values[name])]
    return values


def _option_words(usage: Usage) -> dict[str, tuple[str, ...]]:
    """The words of the option before each placeholder (`--people N`: "people" names N)."""
    words = [*usage.required, *(w for group in usage.optional for w in group)]
    found: dict[str, tuple[str, ...]] = {}
    for before, word in itertools.pairwise(words):
        if before.startswith("-") and PLACEHOLDER.match(word):
            found[word] = tuple(part for part in re.split(r"[-_]", before.lower()) if len(part) > 2)
    return found


def _dated(usage: Usage, by_name: dict[str, Described], request: str) -> dict[str, list[str]]:
    """The values of each placeholder that takes a date (its name, or the sentence defining it,
    says so): the message's dates in the format the skill documents; the one date the defining
    sentence points at when two or more placeholders take dates."""
    dates = written_dates(request)
    if not dates:
        return {}
    formats: dict[str, str] = {}
    clauses: dict[str, str] = {}
    for name in usage.placeholders:
        item = by_name.get(name, Described(name, "", ()))
        if item.values:
            continue
        clause = clause_of(item.said, name, usage.placeholders)
        found = is_date(name, clause, item.said)
        if found is None and set(name.lower().split("_")) & _DATE_NAMES:
            found = date_format(item.said) or ISO
        if found is not None:
            formats[name], clauses[name] = found, clause
    pairs = paired(clauses, dates, request)
    return {name: [formatted(date, format_) for date in ([pairs[name]] if name in pairs else dates)]
            for name, format_ in formats.items()}


def _ordered_pairs(usage: Usage, by_name: dict[str, Described], request: str) -> dict[str, list[str]]:
    """The values of each of two placeholders that take the same listed values (FROM and TO),
    when the request names two of them: the one it gives a figure to ("3 miles", "212 degrees
    Fahrenheit") is the first placeholder's (what is converted), the other the second's; without
    a figure, in the order the request names them ("from F to C", "F in C"). When it names one
    only, with a figure, that is the first's, and the second takes any other."""
    names = [n for n in usage.placeholders if by_name.get(n) and by_name[n].values]
    groups: dict[tuple[str, ...], list[str]] = {}
    for name in names:
        groups.setdefault(by_name[name].values, []).append(name)
    # "km/h" is one token, as the code `kmh` or `km/h` writes it.
    tokens = re.findall(r"[A-Za-z0-9][\w.+-]*(?:/[A-Za-z][\w.+-]*)*|[.!?]", request)
    found: dict[str, list[str]] = {}
    for group in groups.values():
        if len(group) != 2:
            continue
        item = by_name[group[0]]
        at = _positions(item, tokens)
        if not 0 < len(at) <= 2:
            continue
        numbers = [i for i, token in enumerate(tokens) if re.fullmatch(r"-?\d+(?:[.,/]\d+)*", token)]
        order = sorted(at, key=lambda value: at[value])
        given = [value for value in order
                 if any(0 < at[value] - number <= _FIGURE_GAP for number in numbers)]
        if len(at) == 1:
            if given:
                found.update({group[0]: given, group[1]: [v for v in item.values if v not in given]})
            continue
        if len(given) == 1:
            order = [given[0], *(value for value in order if value != given[0])]
        found.update({name: [value] for name, value in zip(group, order, strict=True)})
    return found


def _positions(item: Described, tokens: Sequence[str]) -> dict[str, int]:
    """Where the request's `tokens` first name each of the placeholder's listed values: as
    written ("GiB"), by what the skill says of it ("euros" for `EUR`: euro), or, for a short
    code the skill says nothing of, by a capitalised word it starts ("Fahrenheit" for `F`) but
    the first of a sentence ("Convert")."""
    notes = dict(zip(item.values, item.notes, strict=False))
    found: dict[str, int] = {}
    for index, token in enumerate(tokens):
        lower = token.lower()
        if lower in catalog.STOP_WORDS:
            continue
        # A plural as English writes it: "miles", "inches", "pennies".
        singular = {lower.rstrip("s"), lower.removesuffix("es"),
                    lower.removesuffix("ies") + "y" if lower.endswith("ies") else lower}
        for value in item.values:
            note = (notes.get(value) or "").lower().split()
            head = note[0].strip(",.;:()") if note else ""
            if re.sub(r"[^a-z0-9]", "", lower) == re.sub(r"[^a-z0-9]", "", value.lower()) \
                    or (len(head) > 2 and bool(singular & {head, head.rstrip("s")})) \
                    or (not head and len(value) <= 2 and value.isalpha() and len(token) > 3
                        and token[0].isupper() and lower.startswith(value.lower())
                        and index > 0 and tokens[index - 1] not in ".!?"):
                found.setdefault(value, index)
    return found


def choices(item: Described, values: Sequence[str]) -> list[str]:
    """The enum of a placeholder's listed `values`: each as what the skill says of it, then the
    value (`mile: mi`), when every value has a short note: a small model maps the user's
    "miles" to the note "mile" where it does not map it to the code `mi`."""
    notes = dict(zip(item.values, item.notes, strict=False))
    if not all(0 < len(notes.get(value, "")) <= _SHORT_NOTE for value in values):
        return list(values)
    return [f"{notes[value]}: {value}" for value in values]


def chosen(item: Described, written: str) -> str:
    """The value a filled placeholder stands for (`mi` for "mile: mi")."""
    for value, note in zip(item.values, item.notes, strict=False):
        if written == f"{note}: {value}":
            return value
    return written


def _of_kind(name: str, candidates: Sequence[str], request: str, naming: Collection[str] = (),
             said: str = "", number: bool = False) -> tuple[list[str], str]:
    """The `candidates` of the placeholder's kind (`guided.arguments.affinity`: a number for VALUE, a
    path for FILE, JSON for a placeholder the skill says is JSON), or those next to a word naming
    it or its option (`naming`: "70" in "70 kg" for KG, "4" in "4 people" for `--people N`); all
    of them for a placeholder of no kind a pattern holds; none for a number or a date none of
    them is (a `number` one, a JSON key's an example gave a figure, too). A unit after a figure
    names the placeholder it abbreviates ("500 g" for GRAMS). With how they were found: `_NEAR`,
    `_OF_KIND` or `_ANY`."""
    # "18%" is 18 percent: the figure beside the word naming PERCENT.
    words = [part for word in request.split()
             for part in ([bare(word.strip(_EDGES)), "percent"] if word.strip(_EDGES).endswith("%")
                          else [bare(word.strip(_EDGES))])]
    names = {name.lower(), *name.lower().split("_"), *naming}
    beside = {words[j] for i, word in enumerate(words)
              if _names(word, names) or (i and _FIGURE.fullmatch(words[i - 1]) and _abbreviates(word, names))
              for j in _neighbours(words, i)}
    # The word naming the placeholder says what the value is, not the value ("kg" for KG).
    candidates = [c for c in candidates if c.lower() != name.lower()]
    if re.search(r"\bJSON\b", said):
        literals = [c for c in candidates if is_json(c)]
        if literals:
            return literals, _OF_KIND
    # Those that fit best: `a.schema.json` names SCHEMA, where any path is of its kind.
    top = max((affinity(name, c) for c in candidates), default=0)
    fitting = [c for c in candidates if top and affinity(name, c) == top]
    if number:
        fitting = [c for c in candidates if _FIGURE.fullmatch(c)]
        if not fitting:
            return [], _OF_KIND
    elif set(name.lower().split("_")) & _DURATION_NAMES and \
            (durations := [c for c in candidates if _DURATION.fullmatch(c)]):
        return durations, _OF_KIND
    near = [c for c in candidates if c in beside]
    if fitting:
        both = [c for c in near if c in fitting]
        return (both, _NEAR) if both else (fitting, _OF_KIND)
    if set(name.lower().split("_")) & (_DATE_NAMES | _NUMBER_NAMES):
        return [], _OF_KIND
    # "175 cm tall": the figure is the value, not the word after the unit.
    figures_near = [c for c in near if any(ch.isdigit() for ch in c)]
    if figures_near or near:
        return figures_near or near, _NEAR
    return list(candidates), _ANY


def unfillable(name: str, candidates: Sequence[str], request: str) -> bool:
    """Whether the placeholder takes a number or a date and the message has none."""
    return _of_kind(name, candidates, request) == ([], _OF_KIND)


def _names(word: str, names: Collection[str]) -> bool:
    lower = word.lower()
    return lower in names or (len(lower) > 3 and lower.removesuffix("s") in names)


def _abbreviates(word: str, names: Collection[str]) -> bool:
    """Whether `word` is a unit's short form of one of `names` ("g" of "grams")."""
    lower = word.lower()
    return word.isalpha() and 0 < len(lower) <= 2 and any(
        len(name) > 2 and name.startswith(lower) for name in names)


def _neighbours(words: Sequence[str], index: int) -> list[int]:
    """The words either side of `words[index]`, over one stop word ("tip of 20")."""
    found = []
    for step in (-1, 1):
        at = index + step
        if 0 <= at < len(words) and words[at].lower() in catalog.STOP_WORDS:
            at += step
        if 0 <= at < len(words) and words[at].lower() not in catalog.STOP_WORDS:
            found.append(at)
    return found


def _kind(name: str, optional: bool, number: bool = False) -> dict[str, Any]:
    words = set(name.lower().split("_"))
    # An optional value may be blank, which a kind's pattern would not allow.
    if not optional and words & _DATE_NAMES:
        return {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
    if not optional and (number or words & _NUMBER_NAMES):
        return {"type": "string", "pattern": "^-?[0-9][0-9.,/]{0,20}$"}
    return {"type": "string", "minLength": 0 if optional else 1, "maxLength": _VALUE_CHARS}


def compose(call: ToolCall, usage: Usage, described: Sequence[Described] = ()) -> ToolCall:
    """The run a filled call stands for: `{"script": START, "VALUE": "10", ...}` as the command
    `START 10 ...`, each value one argument (quoted when it must be; a listed value offered with
    its note as the value itself; each value of a repeated placeholder its own argument), an
    optional group left out when its placeholder is blank.
    The call keeps its id."""
    arguments = call.arguments
    by_name = {d.name: d for d in described}
    values = {name: str(arguments.get(name, "")).strip() for name in usage.placeholders}
    values = {name: chosen(by_name[name], value) if name in by_name else value
              for name, value in values.items()}
    words: list[str] = [str(arguments.get(SCRIPT_KEY, ""))]

    objects = dict(usage.objects)

    def argument(word: str) -> str:
        if word in objects:
            return shlex.quote(json.dumps({key.key: _json_value(values[key.placeholder], key.number)
                                           for key in objects[word] if values[key.placeholder]}))
        if not PLACEHOLDER.match(word):
            return word
        if word in usage.repeated:
            return " ".join(shlex.quote(part) for part in _parts(values[word]))
        return shlex.quote(values[word])
    for word in usage.required:
        words.append(argument(word))
    for group in usage.optional:
        names = [word for word in group if PLACEHOLDER.match(word)]
        if names and all(values[name] for name in names):
            words += [argument(w) for w in group]
    return ToolCall(call.id, RUN, {"skill": arguments.get("skill"), "command": " ".join(words)})


def _json_value(value: str, number: bool) -> object:
    """A key's value as the JSON object holds it: a number as a number, when it is one."""
    if number and _FIGURE.fullmatch(value):
        try:
            found = json.loads(value)
        except ValueError:
            return value
        return found if isinstance(found, int | float) else value
    return value


def _parts(value: str) -> list[str]:
    """The values of a repeated placeholder (`4 8 15`, `a.txt 'my notes.txt'`), each one argument;
    a part that would be an option (`--delete`) is no value."""
    return [part for part in split(value) if not part.startswith("-") or _NUMBER.match(part)]


def values_of(command: str, start: str, usage: Usage) -> dict[str, str]:
    """The placeholders' values a command `compose` put together had (`{"NAME": "tomato"}` for
    `START tomato`): its required words in order, then each optional group its option starts."""
    words = split(command)
    at = len(split(start))
    if words[:at] != split(start):
        return {}
    words = words[at:]
    found: dict[str, str] = {}
    index = 0
    objects = dict(usage.objects)
    for word in usage.required:
        if index >= len(words):
            return found
        if word in objects:
            found.update(_object_values(words[index], objects[word]))
        elif PLACEHOLDER.match(word):
            found.setdefault(word, words[index])
        index += 1
    rest = words[index:]
    for group in usage.optional:
        if group and group[0] in rest and not PLACEHOLDER.match(group[0]):
            at = rest.index(group[0])
            for offset, word in enumerate(group[1:], start=1):
                if PLACEHOLDER.match(word) and at + offset < len(rest):
                    found.setdefault(word, rest[at + offset])
    return found


def _object_values(word: str, keys: Sequence[Key]) -> dict[str, str]:
    """The placeholders' values of a JSON object argument as a command gave it."""
    try:
        given = json.loads(word)
    except ValueError:
        return {}
    if not isinstance(given, dict):
        return {}
    return {key.placeholder: str(given[key.key]) for key in keys
            if key.key in given and isinstance(given[key.key], str | int | float)}


def is_filled(call: ToolCall) -> bool:
    return call.name == RUN and SCRIPT_KEY in call.arguments and "command" not in call.arguments


def fill_hint(described: Sequence[Described], usage: Usage, request: str) -> str:
    """What the model is told of each placeholder: the values it takes (with what the skill says
    of each, `mi (mile)`: the user writes "miles"), what the skill says of it, and the values the
    user's `request` names as written ("SHA-256" for `sha256`)."""
    optional = {word for group in usage.optional for word in group if PLACEHOLDER.match(word)}
    optional |= usage.leavable
    lines = ["Fill in each word in capitals from the user's message:"]
    for item in described:
        parts = []
        if units := _glued_units(item.values):
            parts.append(f"a number with its unit written on, one of {', '.join(units)}")
        elif item.values:
            notes = item.notes or ("",) * len(item.values)
            listed = choices(item, item.values[:_SHOWN_VALUES])
            shown = "; ".join(listed) if listed[0] != item.values[0] else ", ".join(
                f"{value} ({_short(note)})" if note else value
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
             if word.lower() not in catalog.STOP_WORDS]
    flat = {re.sub(r"[^a-z0-9]", "", word.lower()) for word in words}
    parts = {part for word in words for part in re.split(r"[-_.]", word.lower())}
    named = [value for value in values
             if re.sub(r"[^a-z0-9]", "", value.lower()) in flat or value.lower() in parts]
    if named:
        return named
    # "per hour" names `hourly`, "each month" `monthly`.
    named = [value for value in values if value.lower().endswith("ly") and len(value) > 5
             and value.lower()[:-2] in flat]
    if named:
        return named
    # Named by its initials: "least common multiple" names `lcm`, "harmonic mean" `hm`.
    initials = _initials(request)
    named = [value for value in values if value.isalpha() and value.lower() in initials]
    if named:
        return named
    # None as written: those of a word of the message ("tomato" names `ripe-tomato`).
    said = {word.lower() for word in words if len(word) > 2}
    return [value for value in values
            if re.search(r"[-_.]", value) and set(re.split(r"[-_.]", value.lower())) & said]


def _glued_units(values: Sequence[str]) -> list[str]:
    """The units of a placeholder that takes a figure with its unit written on (`12.5in`), when
    its listed values are the units and such an example (`cm`, `in`, `12.5in`); else none."""
    units = [value for value in values if not _FIGURE.match(value)]
    glued = [value for value in values if (match := _FIGURE.match(value)) and value[match.end():] in units]
    return units if glued and len(units) + len(glued) == len(values) else []


def _glued(units: Sequence[str], candidates: Sequence[str], request: str) -> list[str]:
    """The message's figures each with a unit written on: the unit the word after the figure
    names ("30 centimetres": `30cm`), else each unit."""
    words = [word.strip(_EDGES) for word in request.split()]
    found: list[str] = []
    for index, word in enumerate(words):
        if not (_FIGURE.fullmatch(word) and word in candidates):
            continue
        after = words[index + 1].lower() if index + 1 < len(words) else ""
        named = [unit for unit in units if after == unit.lower() or _abbreviation(unit, after)]
        found += [word + unit for unit in (named or units)]
    return list(dict.fromkeys(found))


def _abbreviation(code: str, word: str) -> bool:
    """Whether `code` is a short form of `word`: its first letter, then its other letters in
    order ("cm" of "centimetres", "in" of "inches")."""
    code, word = code.lower(), word.lower()
    if not code.isalpha() or len(word) <= len(code) or not word.startswith(code[0]):
        return False
    letters = iter(word[1:])
    return all(letter in letters for letter in code[1:])


def meant_values(item: Described, request: str) -> list[str]:
    """The one value whose note shares the most words with the request, two at least, more than
    any other's ("a new backwards-compatible feature bumps `minor`" for "adds a new,
    backwards-compatible option"); none when that is not clear."""
    wanted = set(catalog.terms(request))
    shared = [len(wanted & set(catalog.terms(note))) for note in item.notes]
    best = max(shared, default=0)
    if best < _MEANT_TERMS or shared.count(best) > 1:
        return []
    return [item.values[shared.index(best)]]


def noted_values(item: Described, request: str) -> list[str]:
    """The values of `item` whose note (what the skill's table says of each) has a part the
    request names as a whole ("Japan" of "Australia, China, Japan"; "Mozilla Public License 2.0"
    of `MPL-2.0`): a name, not a figure."""
    found = []
    for value, note in zip(item.values, item.notes, strict=False):
        parts = [part.strip(" .`*") for part in re.split(r"[,;|]", note)]
        if any(len(part) > 2 and re.search(r"[A-Za-z]{3}", part) and part.lower() not in catalog.STOP_WORDS
               and re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", request, re.IGNORECASE)
               for part in parts):
            found.append(value)
    return found


def _initials(request: str) -> set[str]:
    """The initials of each run of two to five words of the request that follow one another with
    nothing but a space between them, none a stop word ("least common multiple": lcm)."""
    found: set[str] = set()
    for run in re.split(r"[^A-Za-z ]+", request):
        words = run.split()
        for start in range(len(words)):
            for end in range(start + 2, min(start + 5, len(words)) + 1):
                part = words[start:end]
                if any(w.lower() in catalog.STOP_WORDS or len(w) < 3 for w in part):
                    break
                found.add("".join(w[0].lower() for w in part))
    return found


def _short(note: str) -> str:
    return note if len(note) <= _NOTE_CHARS else note[:_NOTE_CHARS].rsplit(" ", 1)[0] + " ..."


def figures(line: str, inputs: Collection[str] = ()) -> list[str]:
    """The numbers of an output's line, as written (`42.1648`, `1,024`), but those of a date or
    a name (`2024-02-29`, `v2`) and those the command gave it (`inputs`): the result's own."""
    return [number for number in re.findall(r"(?<![\w.-])-?\d+(?:[.,]\d+)*(?![\w-])", line)
            if number not in inputs]

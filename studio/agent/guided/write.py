"""A run written whole by the model, few-shot, from the skill's own documentation; the rules check it.

The fill (`guided.fill`) reads each placeholder's values from the skill's words by rules, one rule
per way an author lists them; a skill written another way defeats them (three sets of skills
written blind: 11 of 18, 9 of 24, 6 of 32). Here the model reads what the user would: the
SKILL.md, the files it names and the scripts' own usage, shown after two worked examples of made-up
skills, and writes the command itself, held only to start as one of the skill's scripts starts.
The rules then check what it wrote (`problems`): an option the skill never names, a placeholder
left in capitals, a value outside a list the skill gives for it. A command with a problem is not
run; the fill takes its place.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
from collections.abc import Callable, Collection, Sequence

from studio.agent.guided.arguments import PLACEHOLDER, Usage, split
from studio.agent.guided.freerun import literal
from studio.agent.guided.repair import error_values, rejected
from studio.agent.guided.values import Described, referenced_files
from studio.agent.toolbook import RUN
from studio.llm import Message, ToolSpec

DOC_CHARS = 3600
"""The most of a SKILL.md's body the model is shown: the usage and value lists come first in
nearly every skill, and a small model's prompt is slow to read."""
FILE_CHARS = 1200
"""The most of each file the SKILL.md names (a table of values) the model is shown."""
SCRIPT_CHARS = 900
"""The most of a script's own usage (its docstring, its `add_argument` lines) the model is shown."""
_PRINTED_USAGE = re.compile(r"^\s*usage:\s*(.+)$", re.IGNORECASE)
_OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
_ARGUMENT_LINE = re.compile(r"^\s*\w+\.add_argument\(.*$|^\s*(?:usage|Usage|USAGE)\b.*$", re.MULTILINE)
_DOCSTRING = re.compile(r'^(?:\s*#[^\n]*\n)*\s*(?:"""|\'\'\')(.*?)(?:"""|\'\'\')', re.DOTALL)
_COMMENTS = re.compile(r"^((?:#[^\n]*\n)+)")
_FIGURE = re.compile(r"[-+]?\d+(?:[.,]\d+)?(?:/\d+)?%?")

INSTRUCTIONS = """\
You write the one shell command that answers the user's request with a skill's script. \
Read the skill's documentation: use its script, its options and the exact values it lists \
(codes, names, units as the documentation writes them), in the order its usage line gives. \
Put a phrase of several words in single quotes. Reply with one JSON object only: \
{"tool": "run_skill_script", "arguments": {"skill": SKILL, "command": COMMAND}}"""

_EXAMPLES = (
    ("parcel-rate", """\
# Parcel rate

```bash
python3 scripts/rate.py WEIGHT_KG ZONE [--express]
```

ZONE is the code in the first column:

| Code | Region |
|------|--------|
| EU | Europe |
| NA | North America (USA, Canada, Mexico) |
| AS | Asia |

Add `--express` for delivery in two days.""",
     "What does it cost to send a 2.5 kg parcel to Canada, as fast as possible?",
     "python3 scripts/rate.py 2.5 NA --express"),
    ("text-case", """\
# Text case

Run `python3 scripts/case.py MODE TEXT` where MODE is one of `upper`, `lower` or `title`.

    $ python3 scripts/case.py upper 'good morning'
    GOOD MORNING""",
     'Make "the old man and the sea" look like a book title',
     "python3 scripts/case.py title 'the old man and the sea'"),
)


def documentation(body: str, scripts: Sequence[str], read: Callable[[str], str | None]) -> str:
    """What the model is shown of a skill: its SKILL.md's body, the files it names (not its
    scripts), and each Python or shell script's own usage (its docstring or leading comment,
    its `add_argument` lines), each cut to its share."""
    parts = [_cut(body.strip(), DOC_CHARS)]
    for path in referenced_files(body):
        if path in scripts:
            continue
        text = read(path)
        if text:
            parts.append(f"File {path}:\n{_cut(text.strip(), FILE_CHARS)}")
    for script in scripts:
        text = read(script)
        usage = script_help(text) if text else ""
        if usage:
            parts.append(f"Script {script}:\n{usage}")
    return "\n\n".join(parts)


def script_help(source: str) -> str:
    """A script's own account of how it runs: its leading docstring or comment block, and its
    `add_argument(...)` and usage lines, cut to `SCRIPT_CHARS`."""
    head = ""
    if source.startswith("#!"):
        source = source.split("\n", 1)[1] if "\n" in source else ""
    if (match := _DOCSTRING.match(source)) is not None:
        head = match.group(1).strip()
    elif (match := _COMMENTS.match(source)) is not None:
        head = "\n".join(line.lstrip("#").strip() for line in match.group(1).splitlines())
    lines = [line.strip() for line in _ARGUMENT_LINE.findall(source) if line.strip() not in head]
    return _cut("\n".join(filter(None, [head, *lines])).strip(), SCRIPT_CHARS)


def write_request(skill: str, doc: str, request: str) -> list[Message]:
    """The few-shot request for a written run: the instructions, the two worked examples, then
    the loaded skill's documentation and the user's request."""
    messages = [Message("system", INSTRUCTIONS)]
    for name, text, asked, command in _EXAMPLES:
        messages.append(Message("user", _prompt(name, text, asked)))
        messages.append(Message("assistant", _call(name, command)))
    messages.append(Message("user", _prompt(skill, doc, request)))
    return messages


def repair_turns(skill: str, command: str, output: str, failed: bool = True) -> list[Message]:
    """The turns after a written request that show the run before and its output (it failed, or
    it printed the script's help), and ask for the command that answers the request."""
    if not failed:
        return [Message("assistant", _call(skill, command)),
                Message("user", f"It printed the script's help:\n{output.strip()}\n\nWrite the command "
                                "that answers the request, with the values from the request.")]
    return [Message("assistant", _call(skill, command)),
            Message("user", f"The command failed:\n{output.strip()}\n\nWrite the corrected command: "
                            "the values and their order as the error and the documentation give them.")]


def refused_turns(skill: str, command: str, problem: str) -> list[Message]:
    """The turns after a written request that show a command the rules refused and why, and
    ask for it again: a small model puts right what it is told (a placeholder left in, a word
    for a listed code) far more often than the fill guesses the whole run anew."""
    return [Message("assistant", _call(skill, command)),
            Message("user", f"That command was not run: {problem}.\n\nWrite the corrected command.")]


def asks_help(command: str) -> bool:
    """Whether `command` asks its script for its help (`-h`, `--help`)."""
    return bool({"-h", "--help"} & set(split(command)))


def usage_words(output: str) -> list[str]:
    """The names a usage line a script printed gives its arguments (`cubic_metres`, `FILL` in
    `usage: x.py [-h] --type {a,b} [--fill FILL] cubic_metres`): not values."""
    found: list[str] = []
    lines = output.splitlines()
    for index, line in enumerate(lines):
        match = _PRINTED_USAGE.match(line)
        if match is None:
            continue
        # argparse wraps a long usage line, the rest indented under it.
        more = itertools.takewhile(lambda text: text[:1].isspace() and text.strip(), lines[index + 1:])
        for word in " ".join([match.group(1), *more]).split()[1:]:
            bare = word.strip("[](){}.|")
            if not bare.startswith("-") and re.fullmatch(r"[A-Za-z][\w-]*", bare):
                found.append(bare)
    return found


def substitutions(command: str, start: str, output: str, tried: Collection[str]) -> list[str]:
    """The runs that put right a written `command` of the script `start` runs whose `output`
    rejected one of its words and listed the values it takes (`invalid choice: 'high-cube'
    (choose from '20gp', '40hc')`): the command with that word replaced by each listed value,
    none `tried` already. Empty when the error lists no values or names no word of the command.
    A small model asked to write the repair freely drifted from both (`--fill 40-foot`)."""
    listed = error_values(output)
    parts = _at_start(command, start)
    if len(listed) < 2 or parts is None:
        return []
    head, rest = parts
    named = rejected(output, {str(index): word for index, word in enumerate(rest)})
    if not named:
        return []
    index = int(named[0])
    found: list[str] = []
    for value in listed:
        changed = [value if i == index else word for i, word in enumerate(rest)]
        written = " ".join([head, *(shlex.quote(word) for word in changed)])
        if written not in tried and written not in found:
            found.append(written)
    return found


def write_spec(skill: str, starts: Sequence[str]) -> ToolSpec:
    """`run_skill_script` of `skill` with a command that starts as one of `starts` does (or is
    fed a quoted text on its standard input first), followed by any words without a double quote
    or a backslash (which a JSON string would have to escape)."""
    heads = "|".join(literal(start) for start in starts)
    body = r"( [^\"\\\n]+)?"
    command: dict[str, object] = {"type": "string",
                                  "pattern": rf"^((echo|printf) '[^'\"\\\n]*' \| )?({heads}){body}$"}
    return ToolSpec(RUN, "", {"type": "object", "properties": {
        "skill": {"type": "string", "enum": [skill]}, "command": command,
    }, "required": ["skill", "command"]})


def known_options(doc: str) -> set[str]:
    """The options a skill's documentation names anywhere (`--gap`, `-n`)."""
    return {match.group(1) for match in _OPTION.finditer(doc)}


def problems(command: str, start: str, usage: Usage | None, described: Sequence[Described],
             doc: str, printed: Collection[str] = ()) -> list[str]:
    """What is wrong with a written `command` of the script `start` runs, by the skill's own
    words (`doc`): an option it never names, a placeholder of its usage line written as it is,
    a value outside the list the rules read for its placeholder that the skill does not write
    as a value either (the rules may read the wrong column of a table: `1/8.` in "Pass as", not
    `eighth` in "Note"); a name the script's `printed` usage gives an argument. Empty when
    nothing is."""
    options = known_options(doc)
    words = split(command)
    at = next((i for i in range(len(words)) if " ".join(words[i:i + len(split(start))]) == start), None)
    if at is None:
        return [f"it does not run {start}"]
    words = words[at + len(split(start)):]
    found: list[str] = []
    try:
        shlex.split(command)
    except ValueError:
        # `scale.py '{` (cut where a JSON object needed a double quote): the shell refuses it.
        found.append("a quote in it is not closed")
    if asks_help(command):
        found.append("it asks for the script's help, which answers nothing")
    for word in words:
        name = word.split("=", 1)[0]
        if name.startswith("-") and not _is_number(name) and name not in options | {"-h", "--help"}:
            found.append(f"the skill names no option {name}")
    names = set(usage.placeholders) if usage is not None else set()
    left = [word for word in words if (word in names and PLACEHOLDER.match(word)) or word in printed]
    found += [f"{word} is the usage line's placeholder, not a value" for word in left]
    if usage is None:
        return found
    lists = {d.name: d.values for d in described if d.values}
    found_values, extra = placed(words, usage)
    if extra and not usage.repeated:
        found.append(f"the usage line takes no place for {' '.join(extra)} (quote a phrase of several words)")
    for name, value in found_values.items():
        allowed = lists.get(name)
        # A figure is held to no list of figures: the rules read those off examples (`1.5`, `2`
        # for AMOUNT), and a script that takes only some figures says so when it runs. A list of
        # words is another matter (`2010` where RESULT is win, draw or loss).
        figure = _FIGURE.fullmatch(value) is not None and any(_FIGURE.fullmatch(v) for v in allowed or ())
        if allowed and value not in allowed and value not in left and not _written(value, doc) and not figure:
            shown = ", ".join(allowed[:12]) + (", ..." if len(allowed) > 12 else "")
            found.append(f"{value!r} is not one of the values the skill lists for {name} ({shown})")
    return found


def without_extra(command: str, start: str, usage: Usage) -> str | None:
    """`command` without the words its usage line has no place for (`bf.py 1.25 7 9 3 --pieces
    3`: the first 3), or None when it has none to leave out."""
    parts = _at_start(command, start)
    if parts is None:
        return None
    head, rest = parts
    extra = set(_placement(rest, usage)[1])
    if not extra:
        return None
    first, last = min(extra), max(extra)
    run = rest[first - 1:last + 1] if first > 0 else []
    if run and extra == set(range(first, last + 1)) and \
            not any(word.startswith("-") or _FIGURE.fullmatch(word) for word in run):
        # Words after an operand, none a figure: the phrase it was (`vowels.py programming
        # language`, unquoted), not words to leave out.
        rest = [*rest[:first - 1], " ".join(run), *rest[last + 1:]]
        extra = set()
    return " ".join([head, *(shlex.quote(word) for index, word in enumerate(rest) if index not in extra)])


def moved(command: str, start: str, others: Sequence[tuple[str, Usage]]) -> list[tuple[str, str]]:
    """The runs of another script whose usage line has a place for every operand of `command`
    (of the script `start` runs), which its own usage line has not: `stocking.py 100 40 50` when
    `volume.py LENGTH WIDTH HEIGHT` is the one that takes three. Each is (its start, the
    command), without the options that script's usage line lacks."""
    words = split(command)
    size = len(split(start))
    if words[:size] != split(start):
        return []
    rest = words[size:]
    found: list[tuple[str, str]] = []
    for other, usage in others:
        flags = {word for group in [usage.required, *usage.optional] for word in group
                 if word.startswith("-")}
        kept = [word for word in rest
                if not word.startswith("-") or _is_number(word) or word.split("=")[0] in flags]
        values, extra = placed(kept, usage)
        needed = [word for word in usage.required if PLACEHOLDER.match(word)]
        if needed and not extra and all(name in values for name in needed):
            found.append((other, " ".join([other, *(shlex.quote(word) for word in kept)])))
    return found


def placed(words: Sequence[str], usage: Usage) -> tuple[dict[str, str], list[str]]:
    """Which placeholder of `usage` each of a command's `words` (after the script) fills: an
    option's value its placeholder, the other words the required placeholders in order; and the
    words left over, for which the usage line has no place."""
    found, extra = _placement(words, usage)
    return found, [words[index] for index in extra]


def _placement(words: Sequence[str], usage: Usage) -> tuple[dict[str, str], list[int]]:
    """`placed`, the words left over by their index."""
    after: dict[str, str] = {}
    for group in [usage.required, *usage.optional]:
        for before, word in itertools.pairwise(group):
            if before.startswith("-") and PLACEHOLDER.match(word.strip("[]")):
                after[before] = word.strip("[]")
    flags = {word for group in [usage.required, *usage.optional] for word in group if word.startswith("-")}
    positional = [word for word in usage.required if PLACEHOLDER.match(word) and word not in after.values()]
    found: dict[str, str] = {}
    extra: list[int] = []
    index = 0
    rest = list(words)
    while index < len(rest):
        word = rest[index]
        name, _, value = word.partition("=")
        if name in after:
            if value:
                found.setdefault(after[name], value)
            elif index + 1 < len(rest):
                found.setdefault(after[name], rest[index + 1])
                index += 1
        elif word.startswith("-") and not _is_number(word):
            # An option the usage line lacks (a problem of its own) may take the next word.
            following = rest[index + 1] if index + 1 < len(rest) else "-"
            if word not in flags and not value and not following.startswith("-"):
                index += 1
        elif word not in flags:
            if positional:
                found.setdefault(positional.pop(0), word)
            elif not word.startswith(("<", ">", "|")) and not (index and rest[index - 1] in ("<", ">")):
                extra.append(index)
        index += 1
    optional = [w for group in usage.optional for w in group if not group[0].startswith("-")]
    return found, extra[len(optional):]


def _at_start(command: str, start: str) -> tuple[str, list[str]] | None:
    """`command` up to the end of the script `start` runs (as written, with a pipe into it), and
    its words after; None when it does not run that script."""
    words = split(command)
    size = len(split(start))
    at = next((i for i in range(len(words)) if words[i:i + size] == split(start)), None)
    if at is None:
        return None
    head = command[:command.index(start) + len(start)] if start in command else " ".join(words[:at + size])
    return head, words[at + size:]


def _written(value: str, doc: str) -> bool:
    """Whether `doc` writes `value` as a value: a code span, or a word of a line that runs a
    script (an example). A table's cell is not enough: the names beside the codes are cells too."""
    if f"`{value}`" in doc:
        return True
    return any(value in split(line) for line in doc.splitlines() if re.search(r"\.(?:py|sh|js)\b", line))


def _is_number(word: str) -> bool:
    return re.fullmatch(r"-?\d+(?:\.\d+)?", word) is not None


def _prompt(skill: str, doc: str, request: str) -> str:
    return f"Skill {skill}. Its documentation:\n\n{doc}\n\nRequest: {request}"


def _call(skill: str, command: str) -> str:
    return json.dumps({"tool": RUN, "arguments": {"skill": skill, "command": command}})


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[:limit]
    return (head.rsplit("\n", 1)[0] if "\n" in head else head) + "\n..."

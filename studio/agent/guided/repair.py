"""The repair step of a guided turn: after a run that failed, one bounded chance to put it right.

The model sees the command, its output (the end of it, where an error is), the usage lines and
examples of the SKILL.md, and the files it names. When the output says the call was wrong (a usage
line, the values the script accepts, a traceback, a short error) the repair is a run, never an
answer: a model let choose quoted the error back and the turn ended without one. The values the
error lists (`known: a, b`, `invalid choice: 'x' (choose from 'a', 'b')`, `{c,f,k}` in a usage
line) become the enum of the placeholder it rejected. A long report with a non-zero exit is a
checker's verdict: that may be answered. A turn runs a skill's scripts at most `MAX_RUNS` times:
each run is a card and an approval like any other, and a model that failed twice is not helped
by a third; then the answer is one sentence saying what failed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import PurePosixPath
from typing import Any

from studio.agent.toolbook import READ, RUN
from studio.llm import Message, ToolSpec

MAX_RUNS = 2
_OUTPUT_CHARS = 800
_FILE_CHARS = 2000
_SHORT_ERROR_LINES = 4
"""An output of at most this many lines that says "unknown", "invalid" ... is an error, not a
report: a checker's verdict lists its findings a line each."""
_ERROR_WORDS = re.compile(
    r"\b(?:error|unknown|invalid|unrecognized|unrecognised|not recognized|no such|not found|"
    r"cannot|can't|must be|expected|missing|required|unsupported|not supported|bad|usage)\b",
    re.IGNORECASE)
_USAGE_LINE = re.compile(r"^\s*usage:", re.IGNORECASE | re.MULTILINE)
_TRACEBACK = "Traceback (most recent call last):"
_LISTS = (
    # "known: a, b", "valid formats: a | b", "supported units are a, b"
    re.compile(r"\b(?:known|valid|available|supported|allowed|accepted|possible)\b[\w ]{0,30}?"
               r"(?::|\bare\b|\bis\b)\s*(?=(?P<list>[^\n]+))", re.IGNORECASE),
    # "choose from 'a', 'b'", "must be one of a, b or c", "use C, F or K", "such as 1/4, 1/8"
    re.compile(r"\b(?:choose from|one of|expected|must be|use|try|choices|such as)\b\s*[:=]?\s*"
               r"(?=(?P<list>[^\n]+))", re.IGNORECASE),
)
_LIST_SEPARATOR = re.compile(
    r"\s*,\s*|\s+or\s+|\s+and\s+|\s*\|\s*|(?:\s+/|(?<!\d)/|/(?!\d))\s*(?=\S)(?![\w.-]*\.\w+)")
_REMARK = re.compile(r"(?<=[\w.])\s+\([^()\n]*\)")
_BRACES = re.compile(r"\{([^{}\s]+,[^{}\s]+)\}")
_VALUE = re.compile(r"[\w][\w.+/-]*\Z")
_QUOTED = re.compile(r"""['"\[]([^'"\]\n]{1,80})['"\]]""")
_SENTENCE_CHARS = 200


def run_results(turn: Sequence[Message], skill: str) -> list[tuple[str, str]]:
    """The runs of `skill`'s scripts in `turn`: (command, result) each, in order."""
    commands = {call.id: str(call.arguments.get("command", "")) for message in turn
                for call in message.tool_calls
                if call.name == RUN and call.arguments.get("skill") == skill}
    return [(commands[m.tool_call_id or ""], m.content) for m in turn
            if m.role == "tool" and m.tool_call_id in commands]


def trimmed(text: str, *, head: bool = False) -> str:
    """A run's output cut to its end (where the error is), or a file cut to its `head`."""
    if head:
        return text if len(text) <= _FILE_CHARS else text[:_FILE_CHARS] + "\n[cut]"
    return text if len(text) <= _OUTPUT_CHARS else "[cut]\n" + text[-_OUTPUT_CHARS:]


def repair_hint(commands: Sequence[str], files: Sequence[str]) -> str:
    """What follows a failed run's output: how the script runs, and what the model may do."""
    lines = ["If that failed because of a wrong value, the script runs like this:", *commands]
    if files:
        lines.append(f"The skill's files that may list the values it accepts: {', '.join(files)}")
    lines.append("Run it again with corrected values, read one of those files, or answer with "
                 "what the output says.")
    return "\n" + "\n".join(lines)


def read_spec(skill: str, paths: Sequence[str]) -> ToolSpec:
    """`read_skill_file` of one of `paths` of `skill`."""
    properties: dict[str, Any] = {"skill": {"type": "string", "enum": [skill]},
                                  "path": {"type": "string", "enum": list(paths)}}
    return ToolSpec(READ, "", {"type": "object", "properties": properties,
                               "required": ["skill", "path"]})


def says_call_was_wrong(output: str, given: Collection[str] = ()) -> bool:
    """Whether a failed run's `output` says the call was wrong (so a repair run, not an answer,
    follows): a usage line, a traceback, or a short error (the values the script accepts,
    "unknown", "invalid" ..., or one of the arguments the call was `given`, quoted: "no column
    'sales.csv'"). A longer report is a checker's findings, whatever they say."""
    if _USAGE_LINE.search(output) or _TRACEBACK in output:
        return True
    lines = [line for line in output.splitlines() if line.strip()]
    if len(lines) > _SHORT_ERROR_LINES:
        return False
    quoted = set(_QUOTED.findall(output))
    # A word of a path the call gave ("config-invalid.json: 10 errors") is no error word.
    words = output
    for value in sorted(given, key=len, reverse=True):
        if len(value) > 1:
            words = words.replace(value, " ")
    return bool(error_values(output)) or _ERROR_WORDS.search(words) is not None or \
        any(value in quoted for value in given)


def error_values(output: str) -> list[str]:
    """The values an error lists as those the script accepts: after "known:", "choose from",
    "one of", "valid ...:", "expected", "use", "must be", in order; else the `{a,b,c}` of a usage
    line. A list needs two values at least."""
    for pattern in _LISTS:
        for match in pattern.finditer(output):
            found = _split_list(match.group("list"))
            if len(found) >= 2:
                return found
    # `{c,f,k}` of a usage line; `{2,39}` in a pattern a checker quotes is no list.
    for line in output.splitlines():
        if not _USAGE_LINE.match(line):
            continue
        for match in _BRACES.finditer(line):
            found = [value for value in match.group(1).split(",") if _VALUE.match(value)]
            if len(found) >= 2 and any(c.isalpha() for c in match.group(1)):
                return found
    return []


def _split_list(text: str) -> list[str]:
    # A value's remark in brackets ("1/8. (dotted)") is not a value of its own.
    text = _REMARK.sub("", text.strip())
    text = text.rstrip(".;)").lstrip("([{")
    text = re.sub(r"\s*[)\]}]\s*(?:$|[.;,].*$)", "", text)
    # `a/b` parts alternatives, but not a fraction's figures (`1/4`).
    parts = _LIST_SEPARATOR.split(text)
    found: list[str] = []
    for part in parts:
        value = part.strip().strip("'\"`[]{}()").strip()
        if not value:
            continue
        if not _VALUE.match(value) or len(value) > 40:
            # Prose after the list ("known: a, b; see the docs") ends it.
            break
        if value not in found:
            found.append(value)
    return found


def rejected(output: str, values: dict[str, str]) -> list[str]:
    """The placeholders whose value (of the failed call's `values`) the error names ('tomato' in
    "unknown palette name ['tomato']"), quoted first, then as a word."""
    # A value the error lists as accepted ('F' in "choose from 'C', 'F'") is not the one rejected.
    listed = set(error_values(output))
    quoted = set(_QUOTED.findall(output)) - listed
    named = [name for name, value in values.items() if value and value in quoted]
    if named:
        return named
    return [name for name, value in values.items() if value and value not in listed
            and re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", output)]


def failure_sentence(command: str, output: str, runs: int = MAX_RUNS) -> str:
    """One sentence saying what failed: the command, its exit code and the error's line."""
    match = re.match(r"^exit code (\d+)", output)
    code = f" with exit code {match.group(1)}" if match else ""
    lines = [line.strip() for line in output.splitlines()[1 if match else 0:] if line.strip()]
    errors = [line for line in lines if _ERROR_WORDS.search(line) and not _USAGE_LINE.match(line)]
    said = (errors or lines or [""])[-1]
    if len(said) > _SENTENCE_CHARS:
        said = said[:_SENTENCE_CHARS].rsplit(" ", 1)[0] + " ..."
    said = said.rstrip(".")
    how = "failed twice; the last run" if runs >= 2 else "failed; the run"
    return f"The script {how}, `{command}`, stopped{code}" + (f": {said}." if said else ".")


# A value starts with a word character: output never hands an option in a value's place.
_ASKED = re.compile(r"\b(?:use|try|pass|add|run it with|rerun with)\s+`?(?P<option>--?[A-Za-z][\w-]*)"
                    r"(?:[ =](?P<value>\w[\w.+-]*))?`?", re.IGNORECASE)


def asked_options(output: str) -> list[tuple[str, str]]:
    """The options a run's `output` asks for by name ("to decode it use --mode decode",
    "try --strict"): each with the value it gives (or ""), in order."""
    found = [(match.group("option"), match.group("value") or "") for match in _ASKED.finditer(output)]
    return list(dict.fromkeys(found))


_USAGE_TEXT = re.compile(r"^\s*usage:\s*(?P<text>.+)$", re.IGNORECASE | re.MULTILINE)


def usage_commands(output: str, start: str) -> list[str]:
    """The commands a script's own usage message shows (`usage: roman.py --to-roman NUMBER |
    roman.py --from-roman NUMERAL`), each alternative started as `start` starts the script: the
    script says how it runs, which a SKILL.md that shows only examples does not."""
    script = PurePosixPath(start.split()[-1]).name if start.strip() else ""
    if not script:
        return []
    found: list[str] = []
    for match in _USAGE_TEXT.finditer(output):
        for part in match.group("text").split(" | "):
            words = part.split()
            at = next((index for index, word in enumerate(words)
                       if PurePosixPath(word).name == script), None)
            # Only what follows the script's own name, and only when nothing but an
            # interpreter and its path come before it.
            if at is None or at > 1:
                continue
            command = " ".join([start, *words[at + 1:]])
            if command not in found:
                found.append(command)
    return found

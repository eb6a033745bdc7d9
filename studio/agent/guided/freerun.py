"""The run of a script no usage line describes: its start and the message's words, as a pattern.

A free list of words lets a small model write one word a dozen times (`x.py say say say ...`) or
give an option twice (`--rate 40 --pay 40 --rate 40`), and after a failed run, send the failed
command again. The pattern here is a row of optional parts: each of the message's values once,
in the message's order, then each option once with one value after it; after a failed run, the
failed command is left out of it (the first part where a command differs from it is where the
pattern branches). When the error names the value it rejected and lists those it accepts
(`unknown method '4'; known: a, b`), the failed command with each of those in its place comes
first: that is the repair the output asks for.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from studio.agent.guided.arguments import split

MAX_ARGUMENTS = 12
_REGEX_SPECIAL = re.compile(r"([.^$*+?()\[\]{}|\\])")
_QUOTED = re.compile(r"""['"]([^'"\n]{1,80})['"]""")


def literal(text: str) -> str:
    """`text` as a pattern matching itself, escaped only where a regex needs it: llama.cpp's
    pattern grammar knows fewer escapes than Python's `re.escape` writes."""
    return _REGEX_SPECIAL.sub(r"\\\1", text)


def free_pattern(start: str, words: Sequence[str], tried: Collection[str] = ()) -> str | None:
    """The pattern of a run of `start` with `words` (values and `--options`), each at most once,
    the values in their order, then the options each with one value or none; the commands in
    `tried` left out. None when nothing is left."""
    values = list(dict.fromkeys(word for word in words if not word.startswith("-")))[:MAX_ARGUMENTS]
    options = list(dict.fromkeys(word for word in words if word.startswith("-")))[:MAX_ARGUMENTS]
    parts: list[tuple[str, list[str]]] = [(word, []) for word in values]
    parts += [(option, values) for option in options]
    head = f"^{literal(start)}"
    excluded = [choice for command in tried if (choice := _choices(command, start, parts)) is not None]
    if not excluded:
        return f"{head}{''.join(_free(part) for part in parts)}$"
    failed = excluded[0]
    branches = []
    for index, part in enumerate(parts):
        same = map(_fixed, parts[:index], failed[:index])
        rest = map(_free, parts[index + 1:])
        branches.append("".join([*same, _differ(part, failed[index]), *rest]))
    if not branches:
        return None
    return f"{head}({'|'.join(branches)})$"


def replaced(command: str, output: str, listed: Sequence[str]) -> list[str]:
    """The failed `command` with the value its error `output` rejected (quoted: `'4'`) replaced by
    each of the values the error `listed`: after the option the error names (`--method` for
    "unknown method"), else wherever it is."""
    words = split(command)
    quoted = [value for value in _QUOTED.findall(output) if value in words[1:] and value not in listed]
    if not quoted or not listed:
        return []
    bad = quoted[0]
    at = [index for index, word in enumerate(words) if index > 0 and word == bad]
    named = [index for index in at if words[index - 1].startswith("-")
             and re.search(rf"\b{re.escape(words[index - 1].lstrip('-'))}\b", output, re.IGNORECASE)]
    found: list[str] = []
    for index in named or at:
        for value in listed:
            if re.search(r"[\s'\"\\]", value):
                continue
            found.append(" ".join([*words[:index], value, *words[index + 1:]]))
    return list(dict.fromkeys(found))


def _free(part: tuple[str, list[str]]) -> str:
    word, values = part
    if not values:
        return f"( {literal(word)})?"
    return f"( {literal(word)}( ({'|'.join(map(literal, values))}))?)?"


def _fixed(part: tuple[str, list[str]], choice: str | None) -> str:
    """The part as the failed command had it: absent (None), the word alone (""), or with `choice`."""
    if choice is None:
        return ""
    return f" {literal(part[0])}" + (f" {literal(choice)}" if choice else "")


def _differ(part: tuple[str, list[str]], choice: str | None) -> str:
    """The part as the failed command did not have it (`choice`, as `_choices` reads it)."""
    word, values = part
    if choice is None:
        return _free(part)[:-1]
    if not choice:
        return f"( {literal(word)} ({'|'.join(map(literal, values))}))?" if values else ""
    others = [value for value in values if value != choice]
    if not others:
        return f"( {literal(word)})?"
    return f"( {literal(word)}( ({'|'.join(map(literal, others))}))?)?"


def _choices(command: str, start: str, parts: Sequence[tuple[str, list[str]]]) -> list[str | None] | None:
    """How `command` chose each part (None: absent; "": the word alone; else the value after it),
    or None when the pattern does not allow it."""
    if command != start and not command.startswith(start + " "):
        return None
    tokens = split(command[len(start):])
    at = 0
    found: list[str | None] = []
    for word, values in parts:
        if at < len(tokens) and tokens[at] == word:
            at += 1
            if values and at < len(tokens) and tokens[at] in values:
                found.append(tokens[at])
                at += 1
            else:
                found.append("")
        else:
            found.append(None)
    return found if at == len(tokens) else None

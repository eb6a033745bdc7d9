"""Invoking a skill by name in the chat: `/NAME arguments` (Claude Code) or `$NAME arguments`
(Codex), with the arguments put into the skill's body as Claude Code does.

From https://code.claude.com/docs/en/skills ("Pass arguments to skills"; read 2026-11-26
through the mirrors cited in studio/skills/checks/clients.py): `$ARGUMENTS` is everything after the
name; `$ARGUMENTS[N]` and its shorthand `$N` are the N-th argument, counted from 0, the
arguments split as a shell splits words (quotes keep spaces); a name listed in the skill's
`arguments` field stands for the argument at its position (`$issue`); `${CLAUDE_SKILL_DIR}` is
the skill's folder. When the body uses no `$ARGUMENTS` form and arguments were given, they are
appended as `ARGUMENTS: <value>`. A placeholder whose argument is missing becomes empty.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

PREFIXES = ("/", "$")
_INVOCATION = re.compile(r"\s*([/$])([A-Za-z0-9][\w.-]*)(?:\s+(.*))?\s*\Z", re.DOTALL)
_NAMED = r"[A-Za-z_][\w-]*"
_PLACEHOLDER = re.compile(
    r"\$ARGUMENTS\[(?P<index>\d+)\]|\$ARGUMENTS(?![\w\[])|\$(?P<digit>\d+)"
    r"|\$\{CLAUDE_SKILL_DIR\}|\$(?P<named>" + _NAMED + ")"
)


@dataclass(frozen=True, slots=True)
class Invocation:
    """A message that invokes a skill: its name, the text after it, and the prefix used."""

    name: str
    arguments: str
    prefix: str


def parse_invocation(text: str, names: Collection[str]) -> Invocation | None:
    """The invocation `text` is, when it starts with `/` or `$` and a name in `names`."""
    found = _INVOCATION.match(text)
    if found is None or found.group(2) not in names:
        return None
    return Invocation(found.group(2), (found.group(3) or "").strip(), found.group(1))


def split_arguments(arguments: str) -> list[str]:
    """The arguments as a shell splits them; an unclosed quote splits on white space instead."""
    try:
        return shlex.split(arguments)
    except ValueError:
        return arguments.split()


def argument_names(field: object) -> list[str]:
    """The names of the `arguments` field: a space-separated string or a list."""
    if isinstance(field, str):
        return field.split()
    if isinstance(field, list):
        return [str(item).strip() for item in field if str(item).strip()]
    return []


def substitute(body: str, arguments: str, directory: Path,
               names: Sequence[str] = ()) -> str:
    """`body` with the invocation's arguments and the skill's folder put in."""
    words = split_arguments(arguments)
    positions = {name: index for index, name in enumerate(names)}
    used_arguments = False

    def word(index: int) -> str:
        return words[index] if index < len(words) else ""

    def replace(match: re.Match[str]) -> str:
        nonlocal used_arguments
        text = match.group(0)
        if text == "${CLAUDE_SKILL_DIR}":
            return str(directory)
        if match.group("named") is not None:
            position = positions.get(match.group("named"))
            if position is None:
                return text
            used_arguments = True
            return word(position)
        used_arguments = True
        if match.group("index") is not None:
            return word(int(match.group("index")))
        if match.group("digit") is not None:
            return word(int(match.group("digit")))
        return arguments

    result = _PLACEHOLDER.sub(replace, body)
    if arguments and not used_arguments:
        result = result.rstrip("\n") + f"\n\nARGUMENTS: {arguments}\n"
    return result

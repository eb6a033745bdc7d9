"""A skill's `allowed-tools`: which shell commands the skill itself says it may run. Applied in
`judge`, so a command outside them is the policy's block, logged as one, not a later refusal."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence


def refusal(skill: str, patterns: Sequence[str], parts: Sequence[str]) -> str | None:
    """Why `patterns` (a skill's allowed-tools) forbid these commands, or None when they do not.

    `Bash` allows every command; `Bash(git status)` one command line; `Bash(python3:*)` any command
    starting with that prefix; a `*` in a pattern is a wildcard.
    """
    bash = [p for p in patterns if p == "Bash" or p.startswith("Bash(")]
    if "Bash" in bash:
        return None
    prefixes = [p[5:-1] for p in bash if p.endswith(")")]
    for part in parts:
        if not any(_matches(prefix, part) for prefix in prefixes):
            allowed = " ".join(bash) or "no shell commands"
            return (
                f"blocked: skill {skill!r} allows only {allowed} in its allowed-tools, "
                f"and `{part}` is not among them"
            )
    return None


def _matches(pattern: str, command: str) -> bool:
    pattern = pattern.strip()
    if pattern.endswith(":*"):
        prefix = pattern[:-2].strip()
        return command == prefix or command.startswith(prefix + " ")
    return fnmatch.fnmatchcase(command.strip(), pattern)

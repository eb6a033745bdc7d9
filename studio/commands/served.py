"""The commands' side of skills served by MCP servers: asking the user (once per server and
manifest) on the terminal, or agreeing with `--yes`, and turning `--skills` values into paths
with the servers' refusals printed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from studio.commands.textsafe import one_line, utf8_text
from studio.skills.served import Roots, ServedSkill, is_served, resolve_roots
from studio.textshow import shown_prose

# Skills named one a line in the question; past these, counted.
MAX_ASKED_LINES = 20

# Asked with a server's address and the skills to agree to; True agrees to all of them.
Consent = Callable[[str, list[ServedSkill]], bool]


def terminal_consent(err: TextIO | None = None, into: TextIO | None = None) -> Consent:
    """Ask at the terminal (stderr and stdin unless given): the server, each skill with its
    description and files, and that its text is the server's (untrusted); yes agrees to all."""
    def ask(server: str, skills: list[ServedSkill]) -> bool:
        out = err if err is not None else sys.stderr
        answers = into if into is not None else sys.stdin
        lines = [f"The MCP server {shown_prose(server)} serves {len(skills)} skill(s) you "
                 "have not agreed to use (or whose files changed since):"]
        for skill in skills[:MAX_ASKED_LINES]:
            description = one_line(shown_prose(skill.description))[:160]
            lines.append(f"  {skill.name}: {description} ({len(skill.files)} files, "
                         f"{skill.size:,} bytes)")
        if len(skills) > MAX_ASKED_LINES:
            lines.append(f"  and {len(skills) - MAX_ASKED_LINES:,} more")
        lines.append("Their text comes from the server: a model reads it as instructions, and "
                     "any script of theirs still goes through the tool policy.")
        out.write(utf8_text("\n".join(lines)) + "\nUse them? [y/N] ")
        out.flush()
        try:
            answer = answers.readline()
        except (OSError, ValueError):
            answer = ""
        return answer.strip().lower() in ("y", "yes")
    return ask


def agree_to_all(server: str, skills: list[ServedSkill]) -> bool:
    """`--yes`: agreed without asking."""
    return True


def consent_of(args: argparse.Namespace, stdin: TextIO | None = None) -> Consent | None:
    """`--yes` agrees; a terminal asks; otherwise no one can, and the skills are left out."""
    stdin = stdin if stdin is not None else sys.stdin
    if getattr(args, "yes", False):
        return agree_to_all
    if stdin.isatty():
        return terminal_consent(into=stdin)
    return None


def report(command: str, roots: Roots, err: TextIO | None = None) -> None:
    err = err if err is not None else sys.stderr
    for problem in roots.problems:
        err.write(utf8_text(f"studio {command}: {one_line(shown_prose(problem))}") + "\n")
    for opened in roots.served:
        if opened.skills:
            names = ", ".join(skill.name for skill in opened.skills)
            err.write(utf8_text(f"studio {command}: {shown_prose(opened.source.shown)}: using "
                                f"{len(opened.skills)} verified skill(s): {names}") + "\n")
    err.flush()


def skill_paths(command: str, args: argparse.Namespace, values: Sequence[Path | str]) -> Roots:
    """The paths of `values` (`--skills` or PATH arguments), each server opened; its problems
    printed on stderr."""
    if not any(is_served(str(value)) for value in values):
        # No server to open: no event loop, whose import alone is a good part of the start-up
        # of a command that validates a skill.
        return Roots(paths=[Path(value) for value in values])
    import asyncio

    return asyncio.run(skill_paths_async(command, args, values))


async def skill_paths_async(command: str, args: argparse.Namespace,
                            values: Sequence[Path | str]) -> Roots:
    """`skill_paths` for a command already in an event loop."""
    roots = await resolve_roots(values, consent_of(args))
    report(command, roots)
    return roots

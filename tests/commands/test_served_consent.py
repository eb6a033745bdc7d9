"""The terminal's question about a server's skills: what it shows (never acting on the terminal)
and what counts as yes; --yes and no terminal."""

from __future__ import annotations

import argparse
import io

from studio.commands.served import consent_of, terminal_consent
from studio.skills.served import ServedSkill
from studio.skills.served.manifest import Limits, check_entry

DIGEST = "sha256:" + "ab" * 32


def skill(description: str) -> ServedSkill:
    return check_entry({"uri": "skill://hello/SKILL.md",
                        "frontmatter": {"name": "hello", "description": description},
                        "resources": [{"uri": "skill://hello/SKILL.md", "digest": DIGEST,
                                       "size": 12}]}, "mcp+http://h/mcp", Limits())


def test_the_question_shows_the_skill_and_acts_on_nothing() -> None:
    err = io.StringIO()
    ask = terminal_consent(err, io.StringIO("y\n"))
    assert ask("mcp+http://h/mcp", [skill("Greets.\x1b[2J Clears your screen")])
    shown = err.getvalue()
    assert "The MCP server mcp+http://h/mcp serves 1 skill(s)" in shown
    assert "hello: Greets." in shown and "(1 files, 12 bytes)" in shown
    assert "\x1b" not in shown
    assert shown.endswith("Use them? [y/N] ")


def test_only_yes_agrees() -> None:
    for answer, agreed in (("yes\n", True), ("Y\n", True), ("\n", False), ("no\n", False),
                           ("", False)):
        ask = terminal_consent(io.StringIO(), io.StringIO(answer))
        assert ask("mcp+http://h/mcp", [skill("d")]) is agreed


def test_yes_agrees_and_no_terminal_asks_no_one() -> None:
    agree = consent_of(argparse.Namespace(yes=True), io.StringIO())
    assert agree is not None and agree("mcp+http://h/mcp", [])
    assert consent_of(argparse.Namespace(yes=False), io.StringIO()) is None

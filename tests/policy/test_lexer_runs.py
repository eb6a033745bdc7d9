"""The lexer reads a word that is one run of plain characters at once (`_PLAIN_WORD`): the same
words, the same script and the same steps spent as its loop over each character gives, on
random text rich in shell syntax and on the command lines of the policy's tests and the docs."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.policy.shell import lexer
from studio.policy.shell.budget import Budget, CheckAborted, running
from studio.policy.shell.cmdline import parse
from studio.policy.shell.syntax import Script

_ROOT = Path(__file__).resolve().parents[2]
_NEVER = re.compile(r"(?!)")


def _parsed(text: str, steps: int) -> tuple[Script | None, int]:
    """The script (None when the budget ran out) and the steps spent."""
    budget = Budget(steps)
    with running(budget):
        try:
            return parse(text), budget.used
        except CheckAborted:
            return None, budget.used


def _both(text: str, steps: int = 10**9) -> tuple[tuple[Script | None, int], tuple[Script | None, int]]:
    """(with the runs read at once, with every character through the loop)."""
    fast = _parsed(text, steps)
    plain = lexer._PLAIN_WORD
    lexer._PLAIN_WORD = _NEVER
    try:
        slow = _parsed(text, steps)
    finally:
        lexer._PLAIN_WORD = plain
    return fast, slow


def _assert_same(text: str) -> None:
    fast, slow = _both(text)
    assert fast == slow, text
    used = slow[1]
    # A budget that runs out anywhere runs out the same way.
    for steps in {0, used // 2, used - 1, used}:
        fast_aborted, slow_aborted = (result[0] is None for result in _both(text, max(steps, 0)))
        assert fast_aborted == slow_aborted, (text, steps)


_PIECES = [
    "a", "ls", "-la", "x=1", "a=(", ")", "(", "((", "))", "$", "$(", "${", "}", "$((", "$[", "]", "`",
    "'", '"', "\\", "\\\n", " ", "  ", "\t", "\n", ";", ";;", "&", "&&", "|", "||", "|&", "<", ">",
    ">>", "2>", "2>&1", "{fd}>", "<<", "<<-", "EOF", "<(", ">(", "#", "# note", "~/.bashrc", "é", "日本",
    "curl", "https://example.com/x?y=1&z=2", "*.py", "{a,b}", "!", "[[", "]]", "case", "in", "esac",
    "function", "f()", "{", "for", "do", "done", "=", "+=", "0", "9<", "$'\\n'",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_random_shell_text_gives_the_same_script_and_steps(pieces: list[str]) -> None:
    _assert_same("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_random_characters_give_the_same_script_and_steps(text: str) -> None:
    _assert_same(text)


def _command_lines() -> Iterator[str]:
    """The strings of the policy's tests, and the shell blocks of the docs."""
    for path in sorted((_ROOT / "tests" / "policy").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and 0 < len(node.value) < 400:
                yield node.value
    for path in sorted((_ROOT / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        yield from re.findall(r"```(?:sh|bash|shell|console)\n(.*?)```", text, re.S)


def test_real_command_lines_give_the_same_script_and_steps() -> None:
    lines = list(_command_lines())
    assert len(lines) > 500
    for text in lines:
        _assert_same(text)


@pytest.mark.parametrize("text", ["ls", "ls -la /tmp", "a=(1 2) b", "x=1 y", "echo a\\ b", "cat<f", "a;b"])
def test_plain_words_are_taken_whole(text: str) -> None:
    _assert_same(text)
    assert _both(text)[0][0] is not None

"""The parser copies a command with a field changed by `cmdline._changed`, not by
`dataclasses.replace` (which costs several times more): the two give the same command, for
every field it sets and every command shape, and `_changed` copies every field there is."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from studio.policy.shell import cmdline
from studio.policy.shell.cmdline import parse
from studio.policy.shell.syntax import SimpleCommand

_LINES = [
    "ls -la", "a=1 b=2 env", "cat <<EOF >out\nx\nEOF", "( cd x && make ) | tee log", "[[ -f x ]]",
    "for i in 1 2; do echo $i; done", "case $x in a) b;; esac", "f() { f; }", "((i++))",
    "echo $(date) `id` > /dev/null 2>&1 &", "",
]


def test_every_field_of_a_command_is_copied() -> None:
    copied = inspect.getsource(cmdline._changed)
    for field in dataclasses.fields(SimpleCommand):
        assert f"command.{field.name}" in copied, field.name


@pytest.mark.parametrize("line", _LINES)
def test_changed_is_replace(line: str) -> None:
    commands = [command for command in parse(line).commands]
    commands.append(SimpleCommand(()))
    for command in commands:
        for joined in ("", ";", "&&", "||"):
            assert cmdline._changed(command, joined=joined) == dataclasses.replace(command, joined=joined)
        for name in ("pipe_in", "pipe_out", "subshell"):
            made = cmdline._changed(command, **{name: True})
            assert made == dataclasses.replace(command, **{name: True})
            assert cmdline._changed(made) == made  # what is true stays true

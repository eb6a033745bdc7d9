"""Escape sequences and other controls from a model never reach the terminal raw: `studio chat`
shows them (`\\e[2J`, `<U+202E>`) in the streamed answer, the thinking, the tool calls and the
approval prompt, whatever pieces the model streams them in."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from studio.cli import main
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, Text, Thinking, Turn, calls
from tests.skills.helpers import frontmatter, write_skill

HOSTILE = {
    "OSC 52 clipboard": ("\x1b]52;c;cm0gLXJmIH4=\x07", "\\e]52;c;cm0gLXJmIH4=\\a"),
    "OSC 0 title": ("\x1b]0;owned\x07", "\\e]0;owned\\a"),
    "CSI 2J clear": ("\x1b[2J\x1b[H", "\\e[2J\\e[H"),
    "erase line and return": ("\x1b[2K\rls -la", "\\e[2K\\rls -la"),
    "C1 CSI": ("\x9b2J", "\\x9b2J"),
    "bidi override": ("abc\u202eevil", "abc<U+202E>evil"),
    "zero width": ("pass\u200bword\u2060", "pass<U+200B>word<U+2060>"),
    "NUL": ("a\x00b", "a\\x00b"),
    "BEL": ("ding\x07", "ding\\a"),
    "overstrike": ("a\bb", "a\\bb"),
}
# What a terminal could obey: C0 controls but the newline, DEL, C1, and the format characters.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "demo", frontmatter("demo") + "Run `echo`.\n")
    return root


def _split(text: str) -> list[Text]:
    """The text in pieces of 1, 2 and 3 characters: an escape cut after its ESC, inside its
    parameters, before its terminator."""
    pieces, start, size = [], 0, 1
    while start < len(text):
        pieces.append(Text(text[start:start + size]))
        start, size = start + size, size % 3 + 1
    return pieces


def _chat(fake: FakeOllama, workspace: Path, *extra: str) -> int:
    return main(["chat", "--backend", "ollama", "--url", fake.url, "--model", TOOL_MODEL,
                 "--skills", str(workspace / "skills"), "--workspace", str(workspace), *extra, "go"])


@pytest.mark.parametrize("name", HOSTILE)
def test_a_streamed_answer_shows_escapes_and_never_sends_them(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, name: str,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    hostile, visible = HOSTILE[name]
    fake_ollama.script(Turn([Thinking(hostile), *_split(f"before {hostile} after")]))
    assert _chat(fake_ollama, workspace, "--think") == 0
    out, err = capsys.readouterr()
    assert RAW.search(out) is None, repr(out)
    assert RAW.search(err) is None, repr(err)
    assert out == f"before {visible} after\n"
    assert visible in err


class _Terminal(io.StringIO):
    """A keyboard that denies: the chat asks on the terminal as it would for a person."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("name", HOSTILE)
def test_the_approval_prompt_shows_the_command_exactly(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, name: str,
) -> None:
    monkeypatch.setattr(sys, "stdin", _Terminal("3\nno\n"))
    hostile, visible = HOSTILE[name]
    command = f"python3 -c 'print(1)' # {hostile}"
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": command})),
                       Turn([Text("Denied.")]))
    assert _chat(fake_ollama, workspace) == 0
    out, err = capsys.readouterr()
    assert RAW.search(out + err) is None, repr(err)
    assert f"-> run_skill_script: python3 -c 'print(1)' # {visible}\n" in err, err
    if name == "NUL":  # no command line can hold it: refused before anyone is asked
        assert "contains a NUL character" in err
    else:
        assert f"demo wants to run, in {workspace}" in err, err
        assert f"\n    python3 -c 'print(1)' # {visible}\n" in err, err


def test_json_lines_escape_what_a_terminal_would_obey_and_keep_the_text(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    everything = "".join(hostile for hostile, _ in HOSTILE.values())
    fake_ollama.script(Turn(_split(everything)))
    assert _chat(fake_ollama, workspace, "--json") == 0
    out, _ = capsys.readouterr()
    assert RAW.search(out) is None, repr(out)
    events = [json.loads(line) for line in out.splitlines()]
    assert "".join(event["text"] for event in events if event["kind"] == "text") == everything


def test_prose_keeps_emoji_sequences_and_windows_line_ends(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    prose = "👩\u200d💻 می\u200cخواهم\r\nnext line"
    fake_ollama.script(Turn(_split(prose)))
    assert _chat(fake_ollama, workspace) == 0
    assert capsys.readouterr().out == prose + "\n"

"""`studio chat --create-in DIR`: where the skills the model drafts are created."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from studio.cli import main
from tests.fakes.fixtures import OLLAMA_MODELS, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

DRAFT = {"name": "greeter", "description": "Greets people. Use when asked to say hello.",
         "body": "Say hello."}


def _chat(server: FakeOllama, skills: Path, *args: str) -> int:
    return main(["chat", "--backend", "ollama", "--url", server.url, "--model", TOOL_MODEL,
                 "--skills", str(skills), "--workspace", str(skills.parent), "--auto-approve",
                 *args, "make a skill"])


@pytest.fixture
def skills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    root = tmp_path / "skills"
    write_skill(root, "demo", frontmatter("demo"))
    return root


def test_new_skills_go_to_the_folder_given(skills: Path, tmp_path: Path) -> None:
    target = tmp_path / "drafts"
    with FakeOllama(OLLAMA_MODELS) as server:
        server.script(calls(Call("create_skill", DRAFT)), reply("Done."))
        assert _chat(server, skills, "--create-in", str(target)) == 0
    text = (target / "greeter" / "SKILL.md").read_text(encoding="utf-8")
    assert f"created-by: {TOOL_MODEL}" in text
    assert not (skills / "greeter").exists()


def test_by_default_they_go_to_the_first_writable_skill_folder(skills: Path) -> None:
    with FakeOllama(OLLAMA_MODELS) as server:
        server.script(calls(Call("create_skill", DRAFT)), reply("Done."))
        assert _chat(server, skills) == 0
    assert (skills / "greeter" / "SKILL.md").is_file()

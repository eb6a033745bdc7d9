"""`studio chat --system TEXT|@FILE` and the settings' custom prompts reach the model's request."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
import yaml

from studio.agent.prompt import INSTRUCTIONS
from studio.cli import main
from studio.paths import config_dir
from studio.settings import SETTINGS_FILE
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "demo", frontmatter("demo"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return root


def chat(server: FakeOllama, workspace: Path, *args: str) -> int:
    server.script(reply("ok"))
    return main(["chat", "--url", server.url, "--model", TOOL_MODEL, "--skills",
                 str(workspace / "skills"), "--workspace", str(workspace), *args, "hi"])


def sent_system(server: FakeOllama) -> str:
    [request] = server.chats
    text: str = request["messages"][0]["content"]
    return text


def write_settings(prompts: dict[str, object]) -> None:
    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETTINGS_FILE).write_text(yaml.safe_dump({"prompts": prompts}), encoding="utf-8")


def test_system_text_replaces_the_instructions(fake_ollama: FakeOllama, workspace: Path) -> None:
    assert chat(fake_ollama, workspace, "--system", "RUN-INSTRUCTIONS") == 0
    system = sent_system(fake_ollama)
    assert system.startswith("RUN-INSTRUCTIONS\n") and INSTRUCTIONS not in system
    assert "<name>demo</name>" in system


def test_system_at_file_reads_the_file(fake_ollama: FakeOllama, workspace: Path) -> None:
    (workspace / "prompt.md").write_text("FROM-A-FILE\nsecond line\n", encoding="utf-8")
    assert chat(fake_ollama, workspace, "--system", f"@{workspace / 'prompt.md'}") == 0
    assert sent_system(fake_ollama).startswith("FROM-A-FILE\nsecond line\n")


@pytest.mark.parametrize(("content", "problem"), [
    (None, "No such file"), (b"\xff\xfe bad", "not UTF-8 text"), (b"x" * (70 * 1024), "over 64 KiB"),
])  # fmt: skip
def test_a_system_file_that_cannot_be_used_stops_the_chat(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
    content: bytes | None, problem: str,
) -> None:
    path = workspace / "prompt.md"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit) as stopped:
        chat(fake_ollama, workspace, "--system", f"@{path}")
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"--system @{path}" in err and problem in err
    assert fake_ollama.chats == []


def test_the_settings_prompts_are_used_and_system_wins(
    fake_ollama: FakeOllama, workspace: Path
) -> None:
    write_settings({"instructions": "SETTINGS-INSTRUCTIONS",
                    "tools": {"activate_skill": "SETTINGS-ACTIVATE"}})
    assert chat(fake_ollama, workspace) == 0
    assert sent_system(fake_ollama).startswith("SETTINGS-INSTRUCTIONS\n")
    descriptions = {t["function"]["name"]: t["function"]["description"]
                    for t in fake_ollama.chats[0]["tools"]}
    assert descriptions["activate_skill"] == "SETTINGS-ACTIVATE"
    assert chat(fake_ollama, workspace, "--system", "FLAG-WINS") == 0
    assert fake_ollama.chats[-1]["messages"][0]["content"].startswith("FLAG-WINS\n")


def test_bad_prompt_settings_are_named_and_the_defaults_used(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_settings({"tools": ["not", "a", "mapping"]})
    assert chat(fake_ollama, workspace) == 0
    assert "`prompts.tools` should be a mapping of tool names to descriptions" in capsys.readouterr().err
    assert sent_system(fake_ollama).startswith(INSTRUCTIONS)

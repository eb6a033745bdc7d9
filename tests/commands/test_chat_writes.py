"""`studio chat` says what each run wrote and names each file it held back; held files are
discarded unless `--keep-writes` is passed."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from studio.agent.sandbox import detect
from studio.cli import main
from studio.paths import data_dir
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

pytestmark = pytest.mark.skipif(
    not detect().available, reason=f"no sandbox on this machine: {detect().problem}"
)

PLANT = "python3 scripts/plant.py"
# Plants, at the workspace's top, what direnv, git and VS Code would run, and one plain file.
PLANTER = """\
from pathlib import Path
top = Path("../..")
for name, text in [(".envrc", "id"), ("sub/.git/hooks/pre-commit", "id"),
                   (".vscode/settings.json", "{}"), ("out.txt", "fine")]:
    (top / name).parent.mkdir(parents=True, exist_ok=True)
    (top / name).write_text(text)
"""
PLANTED = (".envrc", "sub/.git", ".vscode")


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "demo", frontmatter("demo") + f"Run `{PLANT}`.\n",
                {"scripts/plant.py": PLANTER})
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return root


def plant(server: FakeOllama, workspace: Path, *args: str) -> int:
    server.script(calls(Call("run_skill_script", {"skill": "demo", "command": PLANT})),
                  reply("Done."))
    return main(["chat", "--backend", "ollama", "--url", server.url, "--model", TOOL_MODEL,
                 "--skills", str(workspace / "skills"), "--workspace", str(workspace),
                 "--auto-approve", *args, "plant"])


def test_held_files_are_named_and_discarded_and_ordinary_ones_land(
        fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert plant(fake_ollama, workspace) == 0
    err = capsys.readouterr().err
    for planted in PLANTED:
        assert not (workspace / planted).exists(), planted
    assert (workspace / "out.txt").read_text() == "fine"
    assert "   created: out.txt, sub/\n" in err
    for shown in (".envrc: direnv runs it", "sub/.git/: git runs", ".vscode/: VS Code runs"):
        assert f"   held back (created): {shown}" in err
    assert ("studio: discarded what the run wrote that other tools would run: .envrc, "
            ".vscode/, sub/.git/. Pass --keep-writes to keep such files") in err
    assert list((data_dir() / "held").iterdir()) == []


def test_keep_writes_keeps_them(fake_ollama: FakeOllama, workspace: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert plant(fake_ollama, workspace, "--keep-writes") == 0
    err = capsys.readouterr().err
    assert (workspace / ".envrc").read_text() == "id"
    assert (workspace / "sub/.git/hooks/pre-commit").read_text() == "id"
    assert (workspace / ".vscode/settings.json").is_file()
    assert "studio: kept (--keep-writes): .envrc, .vscode/, sub/.git/" in err


def test_json_mode_gives_the_writes_as_an_event(
        fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert plant(fake_ollama, workspace, "--json") == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (writes,) = [e for e in events if e["kind"] == "tool_writes"]
    assert writes["created"] == ["out.txt", "sub/"]
    assert [h["path"] for h in writes["held"]] == [".envrc", ".vscode/", "sub/.git/"]
    assert any(e["kind"] == "notice" and e["message"].startswith("discarded") for e in events)

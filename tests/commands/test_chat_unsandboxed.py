"""`studio chat --auto-approve` where there is no sandbox (bubblewrap missing): it runs nothing,
and says why on every command it was asked about, unless the user passes `--unsandboxed` or
sets `sandbox.allow_unsandboxed`."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from studio.agent.sandbox import detect
from studio.paths import config_dir
from studio.settings import SETTINGS_FILE
from tests.commands.test_chat_command import ASKS, MARK_SCRIPT, studio_chat
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "demo", frontmatter("demo") + f"Run `{ASKS}`.\n",
                {"scripts/mark.py": MARK_SCRIPT})
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return root


@pytest.fixture
def no_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A PATH with bash and python3 but no bubblewrap, seen by a fresh look for a sandbox."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for program in ("bash", "sh", "python3"):
        found = shutil.which(program)
        assert found is not None
        (folder / program).symlink_to(found)
    monkeypatch.setenv("PATH", str(folder))
    detect.cache_clear()
    yield
    detect.cache_clear()


def _marker(workspace: Path) -> Path:
    return workspace / "skills" / "demo" / "ran.txt"


def _asks_twice(server: FakeOllama) -> None:
    server.script(calls(Call("run_skill_script", {"skill": "demo", "command": ASKS})),
                  calls(Call("run_skill_script", {"skill": "demo", "command": "echo hi"})),
                  reply("done"))


def test_auto_approve_runs_nothing_without_a_sandbox_and_says_why_each_time(
    fake_ollama: FakeOllama, workspace: Path, no_bwrap: None, capsys: pytest.CaptureFixture[str]
) -> None:
    _asks_twice(fake_ollama)
    studio_chat(fake_ollama, workspace, "--auto-approve", "mark it")
    _out, err = capsys.readouterr()
    assert not _marker(workspace).exists()
    assert err.count("   no sandbox: bubblewrap (bwrap) is not installed\n") == 2, err
    assert err.count("   denied by auto-approve: there is no sandbox (bubblewrap (bwrap) is not "
                     "installed), and --auto-approve runs nothing without one; pass "
                     "--unsandboxed") == 2, err
    told = fake_ollama.chats[1]["messages"][-1]["content"]
    assert "no sandbox" in told and "--unsandboxed" in told


def test_the_json_lines_carry_the_reason_too(
    fake_ollama: FakeOllama, workspace: Path, no_bwrap: None, capsys: pytest.CaptureFixture[str]
) -> None:
    _asks_twice(fake_ollama)
    studio_chat(fake_ollama, workspace, "--auto-approve", "--json", "mark it")
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    needed = [event for event in events if event["kind"] == "approval_needed"]
    assert [event["unsandboxed"] for event in needed] == ["bubblewrap (bwrap) is not installed"] * 2
    assert not _marker(workspace).exists()


def test_unsandboxed_lets_auto_approve_run_it_and_still_says_so(
    fake_ollama: FakeOllama, workspace: Path, no_bwrap: None, capsys: pytest.CaptureFixture[str]
) -> None:
    _asks_twice(fake_ollama)
    studio_chat(fake_ollama, workspace, "--auto-approve", "--unsandboxed", "mark it")
    _out, err = capsys.readouterr()
    assert _marker(workspace).read_text() == "yes"
    assert "   no sandbox: bubblewrap (bwrap) is not installed\n" in err
    assert ("   approved once by auto-approve: runs without a sandbox (bubblewrap (bwrap) is "
            "not installed)\n") in err


def test_the_setting_lets_auto_approve_run_it(
    fake_ollama: FakeOllama, workspace: Path, no_bwrap: None
) -> None:
    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETTINGS_FILE).write_text(
        yaml.safe_dump({"sandbox": {"allow_unsandboxed": True}}), encoding="utf-8")
    _asks_twice(fake_ollama)
    studio_chat(fake_ollama, workspace, "--auto-approve", "mark it")
    assert _marker(workspace).read_text() == "yes"


@pytest.mark.skipif(not os.access("/usr/bin/bwrap", os.X_OK), reason="needs bubblewrap")
def test_with_a_sandbox_auto_approve_runs_it_as_before(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _asks_twice(fake_ollama)
    studio_chat(fake_ollama, workspace, "--auto-approve", "mark it")
    assert _marker(workspace).read_text() == "yes"
    assert "no sandbox" not in capsys.readouterr().err

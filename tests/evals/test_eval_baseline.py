"""`studio eval --baseline REF`: the same evals on the skill as a git ref has it, and the change in
pass rate, time and tokens."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from studio.evals.baseline import BaselineError, snapshot_at
from tests.commands.test_eval_command import EVALS, finish, skill_with_evals, studio
from tests.fakes.fixtures import TOOL_MODEL, fake_ollama
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply

__all__ = ["fake_ollama"]

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


def committed_skill(tmp_path: Path) -> Path:
    demo = skill_with_evals(tmp_path, EVALS, [])
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "v1")
    skill_md = demo / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nSay Hello first.\n")
    return demo


def test_a_snapshot_is_the_skill_as_the_ref_has_it(tmp_path: Path) -> None:
    demo = committed_skill(tmp_path)
    old = snapshot_at(demo, "HEAD", tmp_path / "scratch")
    assert old.name == "demo"
    assert "Say Hello first." not in (old / "SKILL.md").read_text()
    assert (old / "evals" / "evals.json").is_file()


@pytest.mark.parametrize(("ref", "message"), [("no-such-tag", "there is no commit"),
                                              ("--output=/tmp/x", "not a git ref")])
def test_a_bad_ref_is_named(tmp_path: Path, ref: str, message: str) -> None:
    demo = committed_skill(tmp_path)
    with pytest.raises(BaselineError, match=message):
        snapshot_at(demo, ref, tmp_path / "scratch")


def test_outside_git_says_so(tmp_path: Path) -> None:
    demo = skill_with_evals(tmp_path, EVALS, [])
    with pytest.raises(BaselineError, match="not in a git repository"):
        snapshot_at(demo, "HEAD", tmp_path / "scratch")


def test_studio_eval_against_the_last_commit_shows_the_change(fake_ollama: FakeOllama,
                                                               tmp_path: Path) -> None:
    demo = committed_skill(tmp_path)
    fake_ollama.script(reply("Hello there!"), reply("Goodbye."))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                   "--only", "evals", "--baseline", "HEAD", "--json"))
    assert code == 0, err
    report = json.loads(out)
    assert report["old_skill"]["ref"] == "HEAD"
    assert (report["pass_rate"], report["old_skill"]["pass_rate"]) == (1.0, 0.0)
    fake_ollama.script(reply("Hello there!"), reply("Goodbye."))
    code, out, err = finish(studio(str(demo), "--url", fake_ollama.url, "--model", TOOL_MODEL,
                                   "--only", "evals", "--baseline", "HEAD", "--no-cache"))
    assert "against HEAD: pass rate +100% (0% -> 100%)" in out, out + err

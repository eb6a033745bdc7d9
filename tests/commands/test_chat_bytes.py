"""A command holding bytes that are not UTF-8 (a model's `\\udcff` in a tool call) goes through
`studio chat` — policy, audit log, run, events in text and JSON — without a crash."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.paths import data_dir
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "demo", frontmatter("demo") + "Run `echo`.\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return root


@pytest.mark.parametrize("mode", [[], ["--json"]])
@pytest.mark.parametrize("command", ["echo caf\udce9 \udcff", "cat \udcff\udcfe.txt"])
def test_a_command_with_bytes_that_are_not_utf8_never_crashes(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
    mode: list[str], command: str,
) -> None:
    fake_ollama.script(calls(Call("run_skill_script", {"skill": "demo", "command": command})),
                       reply("Done."))
    code = main(["chat", "--backend", "ollama", "--url", fake_ollama.url, "--model", TOOL_MODEL,
                 "--skills", str(workspace / "skills"), "--workspace", str(workspace), *mode,
                 "go"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    if mode:
        events = [json.loads(line) for line in out.splitlines()]
        assert events[-1]["kind"] == "done" and events[-1]["reason"] == "answered"
    else:
        assert out == "Done.\n"
        assert "\\xff" in err
    log = (data_dir() / "audit.jsonl").read_bytes()
    log.decode("utf-8")  # the log stays valid UTF-8
    commands = [json.loads(line)["command"] for line in log.splitlines()]
    assert command in commands


def test_the_audit_writer_escapes_what_is_not_utf8_and_reads_it_back(tmp_path: Path) -> None:
    from studio.policy import AuditLog
    from studio.policy.audit import AuditEntry
    log = AuditLog(tmp_path / "audit.jsonl")
    command = "printf '\udcff\udcfe' > caf\udce9"
    log.append(AuditEntry("run", command, "/w/\udc80", extra={"note": "\udcff"}))
    raw = (tmp_path / "audit.jsonl").read_bytes()
    assert b"\\udcff\\udcfe" in raw
    raw.decode("utf-8")
    (entry,) = log.entries()
    assert (entry.command, entry.cwd, entry.extra) == (command, "/w/\udc80", {"note": "\udcff"})


def test_a_command_line_argument_that_is_not_utf8_is_checked_and_logged(tmp_path: Path) -> None:
    import os
    import subprocess
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "STUDIO_DATA_DIR": str(tmp_path / "data"),
           "STUDIO_CONFIG_DIR": str(tmp_path / "config"), "LC_ALL": "C.UTF-8",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "studio", "policy", "check", "--workspace",
                           str(tmp_path), b"cat \xff\xfe.txt"],
                          capture_output=True, env=env, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    (log,) = (tmp_path / "data").rglob("audit.jsonl")
    (line,) = log.read_bytes().decode("utf-8").splitlines()
    assert json.loads(line)["command"] == "cat \udcff\udcfe.txt"

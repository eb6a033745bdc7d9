"""`studio chat` and the network: `--auto-approve` never grants it, `--allow-network` does."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from studio.agent.sandbox import detect
from studio.cli import main
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

pytestmark = pytest.mark.skipif(
    not detect().available, reason=f"no sandbox on this machine: {detect().problem}"
)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    write_skill(root / "skills", "demo", frontmatter("demo") + "Fetch.\n",
                {"scripts/fetch.py": "print('fetched')\n"})
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return root


def sandbox_of_the_run(server: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str],
                       *flags: str) -> str:
    server.script(
        calls(Call("run_skill_script", {"skill": "demo", "command": "python3 scripts/fetch.py"})),
        reply("done"),
    )
    code = main(["chat", "--url", server.url, "--model", TOOL_MODEL, "--skills",
                 str(workspace / "skills"), "--workspace", str(workspace), "--json", *flags, "go"])
    out, _ = capsys.readouterr()
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    (started,) = [e for e in events if e["kind"] == "tool_started"]
    sandbox: str = started["sandbox"]
    return sandbox


def test_auto_approve_runs_without_the_network(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox = sandbox_of_the_run(fake_ollama, workspace, capsys, "--auto-approve")
    assert sandbox.startswith(f"writes only in {workspace.resolve()}; no network;")


def test_allow_network_grants_it(
    fake_ollama: FakeOllama, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox = sandbox_of_the_run(fake_ollama, workspace, capsys, "--auto-approve",
                                 "--allow-network")
    assert "; network allowed;" in sandbox

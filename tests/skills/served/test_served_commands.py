"""The commands with `--skills mcp+...` against a real server of the Skills extension: `studio
prompt` lists its skills (and says which a local one shadows), a run with no terminal leaves them
out unless --yes, `validate` and `search` read them, and `studio install` pins every digest."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest

from studio.cli import main
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.served.servers import fill, stdio_spec, write_served


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_prompt_lists_the_skills_of_an_http_server(http_served: tuple[Path, str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _, spec = http_served
    code, out, err = run(capsys, "prompt", "--yes", "--skills", spec)
    assert code == 0, err
    assert out.count("<skill>") == 3
    for name in ("hello", "weather", "zebra"):
        assert f"<name>{name}</name>" in out
    assert "using 3 verified skill(s): hello, weather, zebra" in err


def test_with_no_terminal_and_no_yes_nothing_is_used(http_served: tuple[Path, str],
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "prompt", "--skills", http_served[1])
    assert code == 2 and "<skill>" not in out
    assert "left out 3 skill(s) you have not agreed to use" in err
    assert "pass --yes to agree" in err


def test_prompt_says_which_served_skill_a_local_one_shadows(
        http_served: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    local = tmp_path / "mine"
    write_served(local, "weather", description="My own weather. Use when asked.")
    code, out, err = run(capsys, "prompt", str(local), "--yes", "--skills", http_served[1])
    assert code == 0, err
    assert "My own weather" in out and out.count("<name>weather</name>") == 1
    assert f"served skill weather is shadowed by the local weather at {local / 'weather'}; " \
           "using the local one" in err


def test_a_lying_file_is_refused_by_the_command(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    served = tmp_path / "served"
    fill(served)
    spec = stdio_spec(served, "--lie", "zebra/SKILL.md")
    code, out, err = run(capsys, "prompt", "--yes", "--skills", spec)
    assert code == 2
    assert "<name>zebra</name>" not in out and "<name>hello</name>" in out
    assert "refused zebra from mcp+stdio:" in err
    assert "the file SKILL.md does not match its SHA-256 digest" in err


def test_validate_and_search_read_served_skills(http_served: tuple[Path, str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    spec = http_served[1]
    code, out, err = run(capsys, "validate", "--yes", spec, "--format", "json")
    assert code == 0, err
    assert sorted(s["name"] for s in json.loads(out)["skills"]) == ["hello", "weather", "zebra"]
    code, out, err = run(capsys, "search", "weather", "--skills", spec, "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["name"] == "weather"


def test_install_pins_every_files_digest(http_served: tuple[Path, str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    served, spec = http_served
    into = tmp_path / "skills"
    code, _, err = run(capsys, "install", spec, "--into", str(into), "--yes")
    assert code == 0, err
    assert "every file verified against the server's manifest" in err
    script = into / "hello" / "scripts" / "hi.sh"
    assert script.read_bytes() == (served / "hello" / "scripts" / "hi.sh").read_bytes()
    lock = json.loads((into / "skills-lock.json").read_text())
    pin = lock["skills"]["hello"]["studio"]["mcp"]
    assert pin["server"] == spec and pin["uri"] == "skill://hello/SKILL.md"
    digest = "sha256:" + hashlib.sha256(script.read_bytes()).hexdigest()
    assert pin["files"]["scripts/hi.sh"] == {"size": script.stat().st_size, "digest": digest}
    assert lock["skills"]["hello"]["sourceType"] == "mcp"


def test_install_without_consent_writes_nothing(http_served: tuple[Path, str], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    into = tmp_path / "skills"
    code, _, err = run(capsys, "install", http_served[1], "--into", str(into))
    assert code == 1 and "nothing was written" in err
    assert not (into / "hello").exists()


def test_eval_conflicts_reads_a_served_library(
        http_served: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    spec = http_served[1]
    code, out, err = run(capsys, "eval", "--conflicts", "--descriptions-only", "--yes", spec,
                         "--json")
    assert code == 0, err
    assert "using 3 verified skill(s)" in err
    assert json.loads(out)["skills"] == 3


def test_a_chat_loads_a_served_skill_and_reads_a_file_of_it(
        http_served: tuple[Path, str], fake_ollama: FakeOllama, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    fake_ollama.script(calls(Call("activate_skill", {"name": "hello"}, id="a")),
                       calls(Call("read_skill_file",
                                  {"skill": "hello", "path": "references/notes.md"}, id="b")),
                       reply("Done."))
    code = main(["chat", "--backend", "ollama", "--url", fake_ollama.url, "--model", TOOL_MODEL,
                 "--skills", http_served[1], "--yes", "--workspace", str(tmp_path), "hi"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out == "Done.\n"
    told = [m["content"] for m in fake_ollama.chats[-1]["messages"] if m["role"] == "tool"]
    assert "Do it." in told[0]
    assert told[1].strip().endswith("Notes.")

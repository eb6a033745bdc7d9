"""`studio validate` and `studio prompt` on hostile libraries, run as a user runs them: in a
process of their own with a timeout, so a hang or a crash fails the test instead of the suite."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills import files
from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.yaml.yamlload import MAX_NESTING
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import reply
from tests.skills.helpers import frontmatter, write_skill

REPO = Path(__file__).resolve().parents[2]


def studio(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    path = os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH"))))
    return subprocess.run(
        [sys.executable, "-m", "studio", *argv], capture_output=True, timeout=120, cwd=cwd,
        env=dict(os.environ, PYTHONPATH=path), check=False,
    )


def good_library(root: Path, count: int) -> list[str]:
    names = [f"skill-{number:03d}" for number in range(count)]
    for name in names:
        write_skill(root, name, frontmatter(name), {"references/guide.md": "# Guide\n"})
    return names


def test_a_fifo_in_a_library_of_good_skills_hangs_neither_validate_nor_prompt(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    names = good_library(root, 3)
    (root / "piped").mkdir()
    os.mkfifo(root / "piped" / "SKILL.md")
    os.mkfifo(root / names[0] / "references" / "pipe.md")
    done = studio("validate", str(root), "--format", "json", "--no-cache")
    assert done.returncode == 2, done.stderr
    report = json.loads(done.stdout)
    by_folder = {Path(s["path"]).name: s for s in report["skills"]}
    assert [d["code"] for d in by_folder["piped"]["diagnostics"]] == ["SK006"]
    assert "FIFO" in by_folder["piped"]["diagnostics"][0]["message"]
    assert [d["code"] for d in by_folder[names[0]]["diagnostics"]] == ["SK210"]
    assert all(by_folder[name]["valid"] for name in names)
    alone = studio("validate", str(root / "piped" / "SKILL.md"), "--no-cache")
    assert alone.returncode == 2 and b"error SK006" in alone.stdout, alone.stderr
    prompt = studio("prompt", str(root))
    assert prompt.returncode == 0, prompt.stderr
    catalog = prompt.stdout.decode()
    assert all(f"<name>{name}</name>" in catalog for name in names)
    assert b"left out" in prompt.stderr and b"FIFO" in prompt.stderr


@pytest.mark.parametrize("name", ["pipe.zip", "pipe.skill"])
def test_a_fifo_named_like_an_archive_is_refused_not_waited_on(tmp_path: Path, name: str) -> None:
    os.mkfifo(tmp_path / name)
    for command in ("validate", "scan"):
        done = studio(command, str(tmp_path / name), "--no-cache")
        assert done.returncode == 2 and b"FIFO" in done.stderr, (command, done.stderr)
    # As a library's root (the window's scan, `studio mcp`): its error, no wait.
    scan = scan_root(SkillRoot(tmp_path / name))
    assert scan.skills == [] and scan.error is not None and "FIFO" in scan.error


def test_yaml_nested_to_crash_libyaml_costs_one_skill_with_workers(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    names = good_library(root, 100)  # past PARALLEL_MIN: the scan uses worker processes
    deep = "---\nname: deep\ndescription: x\nx: " + "[" * 30_000 + "]" * 30_000 + "\n---\n"
    write_skill(root, "deep", deep)
    done = studio("validate", str(root), "--format", "json", "--no-cache")
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr
    by_folder = {Path(s["path"]).name: s for s in json.loads(done.stdout)["skills"]}
    [problem] = by_folder["deep"]["diagnostics"]
    # The fields' mapping is the first level; the [ that opens one level too many is 3 + limit.
    assert problem["code"] == "SK016" and (problem["line"], problem["column"]) == (4, 3 + MAX_NESTING)
    assert all(by_folder[name]["valid"] for name in names)


@pytest.mark.parametrize("target", [".", "SKILL.md"])
def test_validate_from_inside_a_skill_uses_the_folder_s_name(tmp_path: Path, target: str) -> None:
    folder = write_skill(tmp_path, "demo", frontmatter("demo"))
    done = studio("validate", target, "--no-cache", cwd=folder)
    assert done.returncode == 0, done.stdout
    assert b"SK108" not in done.stdout and b"1 valid" in done.stdout


def test_an_unreadable_skill_md_exits_2_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_skill(tmp_path, "locked", frontmatter("locked"))
    write_skill(tmp_path, "fine", frontmatter("fine"))

    def denied(path: object, **_: object) -> int:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(files, "open_regular", denied)  # what chmod 000 does to any user but root
    code = main(["validate", str(tmp_path), "--no-cache"])
    out = capsys.readouterr().out
    assert code == 2
    assert f"{folder / 'SKILL.md'}:1:1: error SK006: cannot read SKILL.md: Permission denied" in out


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_a_skill_md_without_read_permission_exits_2(tmp_path: Path) -> None:
    folder = write_skill(tmp_path, "locked", frontmatter("locked"))
    (folder / "SKILL.md").chmod(0)
    done = studio("validate", str(folder), "--no-cache")
    assert done.returncode == 2 and b"SK006" in done.stdout and b"Permission denied" in done.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="file names are bytes on Linux")
def test_json_stays_utf8_with_a_folder_name_that_is_not(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    root.mkdir()
    raw = os.fsencode(root) + b"/caf\xe9-skill"
    os.mkdir(raw)
    with open(raw + b"/SKILL.md", "wb") as handle:
        handle.write(frontmatter("cafe-skill").encode())
    done = studio("validate", str(root), "--format", "json", "--no-cache")
    assert done.returncode == 1
    report = json.loads(done.stdout.decode("utf-8"))  # strict: fails on invalid UTF-8
    [skill] = report["skills"]
    assert os.fsencode(skill["path"]) == raw
    text = studio("validate", str(root), "--no-cache")
    assert b"caf\\xe9-skill" in text.stdout
    text.stdout.decode("utf-8")


def test_a_newline_in_a_path_keeps_each_finding_on_one_line(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_skill(root, "two\nlines", frontmatter("Bad"))
    done = studio("validate", str(root), "--no-cache")
    lines = done.stdout.decode().splitlines()
    findings = [line for line in lines if " SK1" in line]
    assert len(findings) == 2 and len(lines) == 3
    assert all(line.startswith(f'"{root}/two\\nlines/SKILL.md":') for line in findings)


def test_a_link_out_of_the_root_is_a_notice_and_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    good_library(root, 1)
    write_skill(tmp_path / "elsewhere", "outside", frontmatter("outside"))
    (root / "link").symlink_to(tmp_path / "elsewhere")
    done = studio("validate", str(root), "--format", "json", "--no-cache")
    assert done.returncode == 0
    report = json.loads(done.stdout)
    assert [s["name"] for s in report["skills"]] == ["skill-000"]
    assert [(n["code"], Path(n["path"]).name) for n in report["notices"]] == [("SK302", "link")]
    assert b"notice SK302" in done.stderr


@pytest.mark.timeout(60)  # in process: a FIFO opened for reading would block until the timeout
def test_chat_loads_a_library_holding_a_fifo(
    fake_ollama: FakeOllama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = tmp_path / "lib"
    names = good_library(root, 2)
    (root / "piped").mkdir()
    os.mkfifo(root / "piped" / "SKILL.md")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    fake_ollama.script(reply("Hello."))
    code = main([
        "chat", "--backend", "ollama", "--url", fake_ollama.url, "--model", TOOL_MODEL,
        "--skills", str(root), "--workspace", str(tmp_path), "hi",
    ])  # fmt: skip
    assert code == 0 and capsys.readouterr().out == "Hello.\n"
    [request] = fake_ollama.chats
    tools = {tool["function"]["name"]: tool for tool in request["tools"]}
    offered = tools["activate_skill"]["function"]["parameters"]["properties"]["name"]["enum"]
    assert offered == names

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from studio.cli import main
from tests.skills.helpers import frontmatter, write_skill


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_text_output_is_like_a_compilers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "good", frontmatter("good"))
    write_skill(tmp_path, "bad", frontmatter("Bad"))
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 1
    skill_file = tmp_path / "bad" / "SKILL.md"
    assert f"{skill_file}:2:7: error SK104: uppercase letters: use `bad`" in out
    assert "2 skills checked: 1 valid, 1 invalid" in out


def test_validate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "good", frontmatter("good"))
    write_skill(tmp_path, "bad", "---\nname: bad\n---\n")
    code, out, _ = run(capsys, "validate", str(tmp_path), "--format", "json")
    data = json.loads(out)
    assert code == 1
    by_name = {s["name"]: s for s in data["skills"]}
    assert by_name["good"]["valid"] and by_name["good"]["loadable"]
    assert not by_name["bad"]["valid"] and not by_name["bad"]["loadable"]
    diagnostic = by_name["bad"]["diagnostics"][0]
    assert set(diagnostic) >= {"code", "severity", "message", "line", "column"}
    assert data["summary"]["skills"] == 2 and data["summary"]["invalid"] == 1


def test_validate_one_skill_md_a_folder_and_a_zip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = write_skill(tmp_path, "good", frontmatter("good"))
    assert run(capsys, "validate", str(directory / "SKILL.md"))[0] == 0
    assert run(capsys, "validate", str(directory))[0] == 0
    archive = tmp_path / "pack.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("good/SKILL.md", frontmatter("good"))
    code, out, _ = run(capsys, "validate", str(archive), "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["valid"] == 1


def test_validate_usage_and_io_problems_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "validate", str(tmp_path / "missing"))
    assert code == 2 and "no such file or folder" in err
    (tmp_path / "notes.txt").write_text("x")
    code, _, err = run(capsys, "validate", str(tmp_path / "notes.txt"))
    assert code == 2 and "not a skill folder" in err
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2


def test_fix_dry_run_then_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = write_skill(tmp_path, "demo", "---\nname: Demo\ndescription: Use when: asked\n---\n")
    code, out, _ = run(capsys, "fix", "--dry-run", str(directory))
    assert "+name: demo" in out and "+description: 'Use when: asked'" in out
    assert "Demo" in (directory / "SKILL.md").read_text()
    code, _, _ = run(capsys, "fix", str(tmp_path))
    assert code == 0
    assert (directory / "SKILL.md").read_text() == "---\nname: demo\ndescription: 'Use when: asked'\n---\n"
    assert run(capsys, "validate", str(directory))[0] == 0


def test_new_creates_a_valid_skill_and_refuses_bad_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(capsys, "new", "pdf-tools", "--in", str(tmp_path))
    assert code == 0 and (tmp_path / "pdf-tools" / "SKILL.md").exists()
    assert run(capsys, "validate", str(tmp_path / "pdf-tools"))[0] == 0
    code, _, err = run(capsys, "new", "PDF Tools", "--in", str(tmp_path))
    assert code == 2 and "Try `pdf-tools`" in err
    code, _, err = run(capsys, "new", "pdf-tools", "--in", str(tmp_path))
    assert code == 2 and "already exists" in err


def test_prompt_prints_the_catalog(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "good", frontmatter("good"))
    write_skill(tmp_path, "nodesc", "---\nname: nodesc\n---\n")
    code, out, err = run(capsys, "prompt", str(tmp_path))
    assert code == 0
    assert out.startswith("<available_skills>") and "<name>good</name>" in out and "nodesc" not in out
    assert "left out" in err and "nodesc" in err


def test_the_command_runs_as_a_module(tmp_path: Path) -> None:
    write_skill(tmp_path, "good", frontmatter("good"))
    result = subprocess.run(
        [sys.executable, "-m", "studio", "validate", str(tmp_path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["valid"] == 1


def test_shipped_example_skills_are_all_valid(capsys: pytest.CaptureFixture[str]) -> None:
    skills = Path(__file__).resolve().parents[2] / "skills"
    code, out, _ = run(capsys, "validate", str(skills), "--format", "json")
    data = json.loads(out)
    assert data["summary"]["skills"] >= 5
    assert code == 0 and data["summary"]["warnings"] == 0, out


def test_a_rescan_reports_changes_since_the_last_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write_skill(tmp_path, "good", frontmatter("good"))
    first = run(capsys, "validate", str(tmp_path), "--format", "json")
    assert run(capsys, "validate", str(tmp_path), "--format", "json") == first
    (directory / "SKILL.md").write_text(frontmatter("Good"))
    os.utime(directory / "SKILL.md", ns=(1, 1))
    code, out, _ = run(capsys, "validate", str(tmp_path), "--format", "json")
    assert code == 1 and json.loads(out)["summary"]["invalid"] == 1
    write_skill(tmp_path, "other", frontmatter("other"))
    code, out, _ = run(capsys, "validate", str(tmp_path), "--format", "json")
    assert json.loads(out)["summary"]["skills"] == 2
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert "2 skills checked: 1 valid, 1 invalid" in out


def test_validate_json_gives_the_fixes_edits_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "---\nname: demo\ndescription: Demo. Use when testing.\nversion: 1.0\n---\nbody\n"
    write_skill(tmp_path, "demo", text)
    code, out, _ = run(capsys, "validate", str(tmp_path), "--format", "json", "--no-cache")
    plain = json.loads(out)["skills"][0]["diagnostics"]
    assert code == 1 and [d["code"] for d in plain] == ["SK131"] and "fix" not in plain[0]
    code, out, _ = run(capsys, "validate", str(tmp_path), "--format", "json", "--with-fixes")
    shown = json.loads(out)["skills"][0]["diagnostics"][0]
    assert shown["fix"]["title"] == "Move `version` under `metadata:`"
    edited = text
    for edit in sorted(shown["fix"]["edits"], key=lambda e: e["start"], reverse=True):
        edited = edited[: edit["start"]] + edit["new_text"] + edited[edit["end"] :]
    assert edited == ("---\nname: demo\ndescription: Demo. Use when testing.\n"
                      "metadata:\n  version: '1.0'\n---\nbody\n")
    code, _, err = run(capsys, "validate", str(tmp_path), "--with-fixes")
    assert code == 2 and "--with-fixes needs --format json" in err


def test_prompt_keeps_a_cache_and_reads_only_changed_skill_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.skills.scan import headers

    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    beta = write_skill(tmp_path, "beta", frontmatter("beta"))
    read: list[str] = []
    real = headers.read_skill_bytes
    monkeypatch.setattr(headers, "read_skill_bytes",
                        lambda path: read.append(path.parent.name) or real(path))
    code, _, _ = run(capsys, "prompt", str(tmp_path))
    assert code == 0 and sorted(read) == ["alpha", "beta"]
    read.clear()
    (beta / "SKILL.md").write_text(frontmatter("beta", "Beta, changed. Use when testing."))
    os.utime(beta / "SKILL.md", ns=(1, 1))
    code, out, _ = run(capsys, "prompt", str(tmp_path))
    assert code == 0 and "Beta, changed." in out and "alpha" in out
    assert read == ["beta"]
    read.clear()
    code, again, _ = run(capsys, "prompt", str(tmp_path), "--no-cache")
    assert again == out and sorted(read) == ["alpha", "beta"]

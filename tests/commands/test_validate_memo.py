"""`studio validate` keeps each command line's report with the stamps of what it read, and prints
it again only while every stamp holds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from studio.cli import main
from studio.commands.validate import MEMO_FOLDER, OutputMemo
from studio.paths import cache_dir
from tests.skills.helpers import frontmatter, write_skill


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    main(["validate", *argv, "--format", "json"])
    out, _ = capsys.readouterr()
    return json.loads(out)  # type: ignore[no-any-return]


def codes(data: dict) -> list[str]:  # type: ignore[type-arg]
    return sorted(d["code"] for skill in data["skills"] for d in skill["diagnostics"])


def memo_files() -> list[Path]:
    return sorted((cache_dir() / MEMO_FOLDER).glob("*.marshal"))


def test_a_file_added_to_a_skills_folder_is_noticed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skill = write_skill(tmp_path, "alpha", frontmatter("alpha") + "Run `scripts/go.py`.\n")
    assert codes(report(capsys, str(tmp_path))) == ["SK203"]
    assert codes(report(capsys, str(tmp_path))) == ["SK203"]
    (skill / "scripts").mkdir()
    (skill / "scripts" / "go.py").write_text("#!/usr/bin/env python3\n")
    assert codes(report(capsys, str(tmp_path))) == ["SK204"]
    (skill / "scripts" / "go.py").chmod(0o755)
    assert codes(report(capsys, str(tmp_path))) == []


def test_a_skill_appearing_deep_in_the_library_is_noticed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(tmp_path / "a" / "b", "alpha", frontmatter("alpha"))
    assert report(capsys, str(tmp_path))["summary"]["skills"] == 1
    write_skill(tmp_path / "a" / "b" / "c", "beta", frontmatter("beta"))
    assert report(capsys, str(tmp_path))["summary"]["skills"] == 2
    (tmp_path / "a" / "b" / "c" / "beta" / "SKILL.md").unlink()
    (tmp_path / "a" / "b" / "c" / "beta").rmdir()
    assert report(capsys, str(tmp_path))["summary"]["skills"] == 1


def test_a_missing_path_that_appears_is_noticed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    later = tmp_path / "later"
    assert report(capsys, str(later))["problems"] == [f"{later}: no such file or folder"]
    write_skill(tmp_path, "later", frontmatter("later"))
    data = report(capsys, str(later))
    assert "problems" not in data and data["summary"]["valid"] == 1


def test_the_same_folder_named_otherwise_prints_its_own_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_skill(tmp_path / "lib", "alpha", frontmatter("alpha"))
    monkeypatch.chdir(tmp_path)
    assert report(capsys, "lib")["skills"][0]["path"] == os.path.join("lib", "alpha")
    assert report(capsys, str(tmp_path / "lib"))["skills"][0]["path"] == str(tmp_path / "lib" / "alpha")
    monkeypatch.chdir(tmp_path / "lib")
    assert report(capsys, ".")["skills"][0]["path"] == "alpha"


def test_a_damaged_memo_is_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    first = report(capsys, str(tmp_path))
    [memo] = memo_files()
    for damage in (b"", b"\x00garbage", memo.read_bytes()[:100]):
        memo.write_bytes(damage)
        assert report(capsys, str(tmp_path)) == first


def test_only_the_last_command_lines_keep_a_memo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(OutputMemo.KEEP + 3):
        write_skill(tmp_path, f"skill-{number}", frontmatter(f"skill-{number}"))
        report(capsys, str(tmp_path / f"skill-{number}"))
    assert len(memo_files()) == OutputMemo.KEEP


def test_a_memo_in_use_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "often", frontmatter("often"))
    report(capsys, str(tmp_path / "often"))
    [often] = memo_files()
    for number in range(OutputMemo.KEEP + 3):
        write_skill(tmp_path, f"skill-{number}", frontmatter(f"skill-{number}"))
        report(capsys, str(tmp_path / f"skill-{number}"))
        os.utime(often, ns=(1, 1))  # as if written long ago
        report(capsys, str(tmp_path / "often"))  # ...but used all the time
    assert often in memo_files()


def test_no_cache_keeps_no_memo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    report(capsys, str(tmp_path), "--no-cache")
    assert memo_files() == []


def test_a_file_added_deep_inside_a_skill_is_noticed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skill = write_skill(tmp_path, "alpha", frontmatter("alpha") + "See `references/api/auth.md`.\n",
                        files={"references/api/index.md": "x", "scripts/tools/run.py": "print()\n"})
    (skill / "scripts" / "tools" / "run.py").chmod(0o755)
    assert codes(report(capsys, str(tmp_path))) == ["SK203", "SK205"]
    (skill / "references" / "api" / "auth.md").write_text("auth")
    assert codes(report(capsys, str(tmp_path))) == ["SK205"]
    (skill / "scripts" / "tools" / "run.py").write_text("#!/usr/bin/env python3\nprint()\n")
    assert codes(report(capsys, str(tmp_path))) == []


def test_each_target_keeps_its_own_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha", extra="context: fork\n"))
    for _ in range(2):
        assert codes(report(capsys, str(tmp_path))) == ["SK131"]
        assert codes(report(capsys, str(tmp_path), "--target", "claude-code")) == []
        assert codes(report(capsys, str(tmp_path), "--target", "ollama")) == ["SK132"]


def test_stamps_kept_in_many_records_and_one_output_a_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Records of two stamps: a change to the last skill's folder is in one of the last records.
    monkeypatch.setattr("studio.commands.validate.STAMPS_PER_RECORD", 2)
    for number in range(6):
        write_skill(tmp_path, f"skill-{number}", frontmatter(f"skill-{number}"))
    first = report(capsys, str(tmp_path))
    assert first["summary"]["skills"] == 6
    assert report(capsys, str(tmp_path)) == first
    (tmp_path / "skill-5" / "notes.md").write_text("x")
    (tmp_path / "skill-5" / "SKILL.md").write_text(frontmatter("skill-5") + "See `gone.md`.\n")
    changed = report(capsys, str(tmp_path))
    assert codes(changed) == ["SK203"]
    assert report(capsys, str(tmp_path)) == changed
    outputs = list((cache_dir() / MEMO_FOLDER).glob("*.out"))
    assert len(outputs) == 1 and outputs[0].name.startswith(memo_files()[0].stem + ".")


def test_a_memo_whose_output_is_gone_or_cut_is_not_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(tmp_path, "alpha", frontmatter("alpha"))
    first = report(capsys, str(tmp_path))
    [output] = (cache_dir() / MEMO_FOLDER).glob("*.out")
    output.write_text(output.read_text()[:-10])
    assert report(capsys, str(tmp_path)) == first
    [output] = (cache_dir() / MEMO_FOLDER).glob("*.out")
    output.unlink()
    assert report(capsys, str(tmp_path)) == first

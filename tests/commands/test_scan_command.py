"""`studio scan` and `studio validate --threats`: the report's three formats, and the exit codes
a pre-commit hook or a CI step relies on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main

HEAD = "---\nname: {name}\ndescription: Demo. Use when testing.\n---\n\n# Demo\n"


def _skill(root: Path, name: str, files: dict[str, str]) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(HEAD.format(name=name) + files.pop("body", ""), encoding="utf-8")
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def library(tmp_path: Path) -> Path:
    _skill(tmp_path, "evil", {"scripts/x.py": "import base64\nexec(base64.b64decode('cHJpbnQoMSk='))\n"})
    _skill(tmp_path, "fine", {"body": "Say hello.\n", "requirements.txt": "flask\n"})
    return tmp_path


def test_json_holds_each_skill_and_its_findings(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(library), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"skills"}
    by_name = {Path(skill["path"]).name: skill for skill in report["skills"]}
    assert set(by_name) == {"evil", "fine"}
    (finding,) = [f for f in by_name["evil"]["findings"] if f["code"] == "SK504"]
    assert {"code", "severity", "confidence", "file", "line", "message"} <= set(finding)
    assert (finding["severity"], finding["file"], finding["line"]) == ("critical", "scripts/x.py", 2)
    assert 0 < finding["confidence"] <= 1
    assert [f["severity"] for f in by_name["fine"]["findings"]] == ["info"]


def test_fail_on_exits_1_at_or_above_its_level(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(library), "--fail-on", "high"]) == 1
    assert main(["scan", str(library / "fine"), "--fail-on", "low"]) == 0
    assert main(["scan", str(library / "fine"), "--fail-on", "info"]) == 1
    out = capsys.readouterr().out
    assert "critical SK504" in out and "scripts/x.py:2:1" in out


def test_a_path_without_skills_exits_2_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", str(tmp_path / "missing")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_sarif_has_what_the_2_1_0_schema_requires(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(library), "--format", "sarif"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"]
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    assert run["results"]
    for result in run["results"]:
        assert result["message"]["text"]
        assert result["level"] in ("none", "note", "warning", "error")
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        (location,) = result["locations"]
        region = location["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert location["physicalLocation"]["artifactLocation"]["uri"]


def test_validate_threats_reports_the_same_findings(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--threats", str(library)]) == 1
    validated = capsys.readouterr().out
    main(["scan", str(library)])
    assert validated == capsys.readouterr().out


def test_a_changed_file_scans_the_skill_it_lies_in(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (library / "notes.txt").write_text("not in a skill\n", encoding="utf-8")
    changed = [
        str(library / "evil" / "SKILL.md"),
        str(library / "evil" / "scripts" / "x.py"),
        str(library / "notes.txt"),
    ]
    assert main(["scan", *changed, "--format", "json", "--fail-on", "high"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [Path(skill["path"]).name for skill in report["skills"]] == ["evil"]


def test_an_archive_is_refused_with_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "pack.tar.gz"
    archive.write_bytes(b"\x1f\x8b" + b"\x00" * 18)
    assert main(["scan", str(archive)]) == 2
    assert "unpack it and scan the folder" in capsys.readouterr().err
    empty = tmp_path / "pack.zip"  # a zip is read (tests/threatscan/test_zipped.py): this holds none
    empty.write_bytes(b"PK\x05\x06" + b"\x00" * 18)
    assert main(["scan", str(empty)]) == 2
    assert "no SKILL.md in this archive" in capsys.readouterr().err


def test_a_rescan_reads_the_kept_findings_and_no_cache_reads_every_file_again(
    library: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.paths import cache_dir
    from studio.threatscan import CACHE_FILE
    from studio.threatscan import cache as cache_module
    from studio.threatscan import scanner as scanner_module

    assert main(["scan", str(library), "--format", "json", "--no-cache"]) == 0
    cold = capsys.readouterr().out
    assert not (cache_dir() / CACHE_FILE).exists()
    monkeypatch.setattr(cache_module, "FRESH_NS", 0)  # the library was written just now
    assert main(["scan", str(library), "--format", "json"]) == 0
    assert capsys.readouterr().out == cold
    assert (cache_dir() / CACHE_FILE).is_file()

    def refuse(directory: Path) -> None:
        raise AssertionError(f"{directory} was scanned again")

    monkeypatch.setattr(scanner_module, "_scanned", refuse)
    assert main(["scan", str(library), "--format", "json"]) == 0
    assert capsys.readouterr().out == cold
    assert main(["validate", "--threats", str(library), "--format", "json"]) == 1
    with pytest.raises(AssertionError, match="scanned again"):
        main(["scan", str(library), "--no-cache"])

"""`studio pack`: a `.skill` archive as skill-creator writes it, a Claude Code plugin and a plugin
marketplace; each skill validated first, `evals/` left out, each output read back and checked,
nothing written when anything fails."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from skills_ref.validator import validate as skills_ref_validate

from studio.cli import main
from studio.skills.library import SkillRoot, scan_root
from studio.skills.pack import PackError, check_index, check_marketplace, file_digest, skill_digest
from tests.skills.helpers import frontmatter, write_skill

DESCRIPTION = "Converts units of length. Use when the user asks to convert a distance."


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    for name in ("unit-convert", "csv-profiler"):
        write_skill(root, name, frontmatter(name, DESCRIPTION),
                    files={"scripts/run.py": "print('ok')\n", "references/notes.md": "# Notes\n",
                           "evals/evals.json": "[]\n", "scripts/__pycache__/run.cpython-311.pyc": "x"})
    return root


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_a_skill_archive_holds_the_skill_folder_without_its_evals(
        skills: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dist"
    assert main(["pack", str(skills / "unit-convert"), "-o", str(out)]) == 0
    archive = out / "unit-convert.skill"
    assert f"wrote {archive}" in capsys.readouterr().out
    assert sorted(zipfile.ZipFile(archive).namelist()) == [
        "unit-convert/SKILL.md", "unit-convert/references/notes.md", "unit-convert/scripts/run.py"]
    as_zip = tmp_path / "copy.zip"
    shutil.copy(archive, as_zip)
    scan = scan_root(SkillRoot(as_zip))
    assert [(s.name, s.valid) for s in scan.skills] == [("unit-convert", True)]
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(archive).extractall(unpacked)
    assert skills_ref_validate(unpacked / "unit-convert") == []
    assert archive.stat().st_mode & 0o044, "readable by others, as any file the user creates"
    assert _files(out) == ["unit-convert.skill"], "no temporary file is left"


def test_a_skill_with_errors_is_not_packed(skills: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    broken = write_skill(skills, "Bad_Name", frontmatter("Bad_Name", DESCRIPTION))
    out = tmp_path / "dist"
    assert main(["pack", str(skills / "unit-convert"), str(broken), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "Bad_Name has" in err and "error" in err and "studio validate" in err
    assert _files(out) == ["unit-convert.skill"], "the valid one before it was packed, nothing else"


def test_an_output_that_exists_is_replaced_only_when_asked(
        skills: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dist"
    out.mkdir()
    (out / "unit-convert.skill").write_text("mine")
    assert main(["pack", str(skills / "unit-convert"), "-o", str(out)]) == 1
    assert "already exists; pass --force" in capsys.readouterr().err
    assert (out / "unit-convert.skill").read_text() == "mine"
    assert main(["pack", str(skills / "unit-convert"), "-o", str(out), "--force"]) == 0
    assert zipfile.is_zipfile(out / "unit-convert.skill")


def test_a_plugin_holds_the_skills_and_its_manifest(skills: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "unit-tools"
    assert main(["pack", str(skills / "unit-convert"), str(skills / "csv-profiler"),
                 "--plugin", str(plugin), "--version", "1.2.0", "--description", "Units"]) == 0
    manifest = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())
    assert manifest == {"name": "unit-tools", "version": "1.2.0", "description": "Units"}
    assert _files(plugin) == [
        ".claude-plugin/plugin.json",
        "skills/csv-profiler/SKILL.md", "skills/csv-profiler/references/notes.md",
        "skills/csv-profiler/scripts/run.py",
        "skills/unit-convert/SKILL.md", "skills/unit-convert/references/notes.md",
        "skills/unit-convert/scripts/run.py"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".unit-tools.")]


def test_a_plugin_name_that_is_not_kebab_case_is_refused(
        skills: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", str(skills / "unit-convert"), "--plugin", str(tmp_path / "Unit Tools")]) == 1
    assert "kebab-case" in capsys.readouterr().err
    assert not (tmp_path / "Unit Tools").exists()


def test_a_marketplace_lists_one_plugin_a_skill(skills: Path, tmp_path: Path) -> None:
    market = tmp_path / "team-skills"
    assert main(["pack", str(skills / "unit-convert"), str(skills / "csv-profiler"),
                 "--marketplace", str(market), "--owner", "Team"]) == 0
    data = json.loads((market / ".claude-plugin" / "marketplace.json").read_text())
    assert data["name"] == "team-skills" and data["owner"] == {"name": "Team"}
    assert [(p["name"], p["source"]) for p in data["plugins"]] == [
        ("unit-convert", "./plugins/unit-convert"), ("csv-profiler", "./plugins/csv-profiler")]
    assert all(p["description"] == DESCRIPTION for p in data["plugins"])
    for name in ("unit-convert", "csv-profiler"):
        manifest = json.loads((market / "plugins" / name / ".claude-plugin" / "plugin.json").read_text())
        assert manifest["name"] == name and manifest["author"] == {"name": "Team"}
        assert (market / "plugins" / name / "skills" / name / "SKILL.md").is_file()
    check_marketplace(market)


def test_the_marketplace_check_finds_a_plugin_that_is_not_there(skills: Path, tmp_path: Path) -> None:
    market = tmp_path / "team-skills"
    assert main(["pack", str(skills / "unit-convert"), "--marketplace", str(market), "--owner", "T"]) == 0
    shutil.rmtree(market / "plugins" / "unit-convert")
    with pytest.raises(PackError, match=r"has no plugin at \./plugins/unit-convert"):
        check_marketplace(market)


def test_the_skill_digest_is_the_rfcs_worked_example() -> None:
    files = [("scripts/run.sh", file_digest(b"#!/bin/sh\n")), ("SKILL.md", file_digest(b"# Hello\n"))]
    assert files[1][1] == "sha256:90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be"
    assert skill_digest(files) == (
        "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e")


def test_a_site_index_lists_each_skill_with_its_files_and_digests(skills: Path, tmp_path: Path) -> None:
    site = tmp_path / "public"
    (site / "index.html").parent.mkdir()
    (site / "index.html").write_text("<html></html>")
    assert main(["pack", str(skills / "unit-convert"), str(skills / "csv-profiler"),
                 "--index", str(site)]) == 0
    folder = site / ".well-known" / "agent-skills"
    data = json.loads((folder / "index.json").read_text())
    assert data["version"] == "0.2.0"
    assert [s["name"] for s in data["skills"]] == ["unit-convert", "csv-profiler"]
    entry = data["skills"][0]
    assert entry["description"] == DESCRIPTION
    assert [f["path"] for f in entry["files"]] == ["SKILL.md", "references/notes.md", "scripts/run.py"]
    assert entry["files"][0]["digest"] == file_digest((folder / "unit-convert" / "SKILL.md").read_bytes())
    assert not (folder / "unit-convert" / "evals").exists()
    assert (site / "index.html").read_text() == "<html></html>", "the rest of the site is untouched"
    check_index(folder)
    (folder / "csv-profiler" / "scripts" / "run.py").write_text("print('changed')\n")
    with pytest.raises(PackError, match=r"csv-profiler/scripts/run\.py is missing or differs"):
        check_index(folder)


def test_a_file_name_a_url_cannot_carry_is_refused_before_anything_is_written(
        skills: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (skills / "unit-convert" / "references" / "what?.md").write_text("# ?\n")
    assert main(["pack", str(skills / "unit-convert"), "--index", str(tmp_path / "site")]) == 1
    assert "'references/what?.md' cannot be published" in capsys.readouterr().err
    assert not (tmp_path / "site" / ".well-known" / "agent-skills").exists()


def test_a_version_that_is_not_semantic_is_refused(
        skills: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = tmp_path / "unit-tools"
    assert main(["pack", str(skills / "unit-convert"), "--plugin", str(plugin), "--version", "v1"]) == 1
    assert "'v1' is not a semantic version" in capsys.readouterr().err
    assert not plugin.exists() and [p.name for p in tmp_path.iterdir()] == ["skills"]

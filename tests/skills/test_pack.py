"""`studio pack`: .skill archives, Claude Code plugins and marketplaces, and the well-known index a
site serves; each read back by the rules its consumer applies."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from studio.cli import main
from studio.skills.files import load_zip_skills
from studio.skills.install.pack import (
    PackError,
    index_problems,
    marketplace_problems,
    pack_index,
    pack_marketplace,
    pack_plugin,
    pack_skill,
    plugin_manifest_problems,
    skill_digest,
)
from studio.skills.scan import SkillRoot

CHECKOUT = Path(__file__).resolve().parents[2]


def _skill(root: Path, name: str, description: str = "Does a thing. Use when asked to.") -> Path:
    folder = root / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "evals").mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n"
                                     "Run `python3 scripts/run.py`.\n")
    script = folder / "scripts" / "run.py"
    script.write_text("#!/usr/bin/env python3\nprint('ok')\n")
    script.chmod(0o755)
    (folder / "evals" / "evals.json").write_text(json.dumps({"skill_name": name, "evals": []}))
    return folder


def test_a_skill_archive_holds_the_skill_under_its_folder_without_evals(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    (tmp_path / "secret.txt").write_text("private\n")
    (skill / "scripts" / "leak.txt").symlink_to(tmp_path / "secret.txt")
    archive = pack_skill(skill, tmp_path / "out")
    assert archive == tmp_path / "out" / "tide-tables.skill"
    with zipfile.ZipFile(archive) as opened:
        names = sorted(opened.namelist())
        mode = opened.getinfo("tide-tables/scripts/run.py").external_attr >> 16
    assert names == ["tide-tables/SKILL.md", "tide-tables/scripts/run.py"]
    assert mode & stat.S_IXUSR
    assert [s.name for s in load_zip_skills(archive)] == ["tide-tables"]
    assert list((tmp_path / "out").iterdir()) == [archive]


def test_packing_twice_gives_the_same_bytes(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    first = pack_skill(skill, tmp_path / "a").read_bytes()
    os.utime(skill / "SKILL.md", (1_000_000, 1_000_000))
    assert pack_skill(skill, tmp_path / "b").read_bytes() == first


def test_a_skill_with_errors_is_not_packed_and_the_error_says_where(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    (skill / "SKILL.md").write_text("---\nname: Tide_Tables\ndescription: Reads tides.\n---\nBody.\n")
    with pytest.raises(PackError) as raised:
        pack_skill(skill, tmp_path / "out")
    assert raised.value.findings
    assert "SKILL.md:2:" in str(raised.value)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_plugin_holds_a_valid_manifest_and_its_skills(tmp_path: Path) -> None:
    skills = [_skill(tmp_path / "src", "tide-tables"), _skill(tmp_path / "src", "invoice-total")]
    manifest = pack_plugin(skills, tmp_path / "harbour-kit", author="Ada")
    data = json.loads(manifest.read_text())
    assert manifest == tmp_path / "harbour-kit" / ".claude-plugin" / "plugin.json"
    assert data["name"] == "harbour-kit" and data["author"] == {"name": "Ada"}
    assert plugin_manifest_problems(data) == []
    assert (tmp_path / "harbour-kit" / "skills" / "tide-tables" / "SKILL.md").is_file()
    assert not (tmp_path / "harbour-kit" / "skills" / "tide-tables" / "evals").exists()
    pack_plugin(skills[:1], tmp_path / "harbour-kit")
    assert (tmp_path / "harbour-kit" / "skills" / "tide-tables" / "SKILL.md").is_file()


def test_a_plugin_is_never_written_into_a_folder_of_other_things(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "notes.txt").write_text("mine\n")
    with pytest.raises(PackError, match="not empty"):
        pack_plugin([skill], tmp_path / "project")
    assert sorted(p.name for p in (tmp_path / "project").iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(("manifest", "problem"), [
    ({"name": "Harbour Kit"}, "kebab-case"),
    ({"name": "kit", "version": "one"}, "semantic version"),
    ({"name": "kit", "author": "Ada"}, "author"),
    ([], "JSON object"),
])
def test_plugin_manifest_rules(manifest: object, problem: str) -> None:
    assert any(problem in found for found in plugin_manifest_problems(manifest))


def test_a_marketplace_lists_one_plugin_per_skill(tmp_path: Path) -> None:
    skills = [_skill(tmp_path / "src", "tide-tables"), _skill(tmp_path / "src", "invoice-total")]
    written = pack_marketplace(skills, tmp_path / "market", owner="Ada")
    data = json.loads(written.read_text())
    assert [p["source"] for p in data["plugins"]] == ["./plugins/tide-tables", "./plugins/invoice-total"]
    assert marketplace_problems(data, tmp_path / "market") == []
    for plugin in data["plugins"]:
        manifest = tmp_path / "market" / plugin["source"] / ".claude-plugin" / "plugin.json"
        assert plugin_manifest_problems(json.loads(manifest.read_text())) == []


def test_marketplace_rules_catch_escapes_and_twins(tmp_path: Path) -> None:
    bad = {"name": "market", "owner": {"name": "Ada"}, "plugins": [
        {"name": "a", "source": "../elsewhere"}, {"name": "b", "source": "./plugins/b"},
        {"name": "b", "source": "./plugins/b"}]}
    problems = marketplace_problems(bad, tmp_path)
    assert any("../elsewhere" in p for p in problems)
    assert any("listed twice" in p for p in problems)
    assert any("holds no" in p for p in problems)


def test_the_rfc_worked_example_digest() -> None:
    files = [{"path": "scripts/run.sh", "digest": "sha256:" + hashlib.sha256(b"#!/bin/sh\n").hexdigest()},
             {"path": "SKILL.md", "digest": "sha256:" + hashlib.sha256(b"# Hello\n").hexdigest()}]
    assert skill_digest(files) == ("sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e")


def test_an_index_lists_every_file_with_digests_that_hold(tmp_path: Path) -> None:
    skills = [_skill(tmp_path / "src", "tide-tables"), _skill(tmp_path / "src", "invoice-total")]
    index_file = pack_index(skills, tmp_path / "site")
    root = tmp_path / "site" / ".well-known" / "agent-skills"
    index = json.loads(index_file.read_text())
    assert index_file == root / "index.json"
    assert index["version"] == "0.2.0"
    assert [s["name"] for s in index["skills"]] == ["invoice-total", "tide-tables"]
    assert [f["path"] for f in index["skills"][0]["files"]] == ["SKILL.md", "scripts/run.py"]
    assert index_problems(index, root) == []
    (root / "tide-tables" / "SKILL.md").write_text("tampered\n")
    assert any("tide-tables: SKILL.md does not match" in p for p in index_problems(index, root))


def test_an_index_keeps_the_skills_it_already_lists(tmp_path: Path) -> None:
    pack_index([_skill(tmp_path / "src", "tide-tables")], tmp_path / "site")
    index_file = pack_index([_skill(tmp_path / "src", "invoice-total")], tmp_path / "site")
    assert [s["name"] for s in json.loads(index_file.read_text())["skills"]] == [
        "invoice-total", "tide-tables"]


def test_an_unreadable_index_is_left_as_it_was(tmp_path: Path) -> None:
    index_file = tmp_path / "site" / ".well-known" / "agent-skills" / "index.json"
    index_file.parent.mkdir(parents=True)
    index_file.write_bytes(b"{ not json")
    with pytest.raises(PackError, match="left as it is"):
        pack_index([_skill(tmp_path / "src", "tide-tables")], tmp_path / "site")
    assert index_file.read_bytes() == b"{ not json"


def test_studio_pack_from_the_command_line(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    broken = tmp_path / "src" / "broken"
    broken.mkdir()
    (broken / "SKILL.md").write_text("no frontmatter\n")
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}

    def studio(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "studio", "pack", *args], cwd=tmp_path,
                              capture_output=True, text=True, env=env, timeout=120,
                              stdin=subprocess.DEVNULL)

    done = studio(str(skill), "-o", "dist")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(Path("dist") / "tide-tables.skill")
    failed = studio(str(broken))
    assert failed.returncode == 1 and "fix it first" in failed.stderr
    missing = studio(str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "is not a folder" in missing.stderr


def test_a_packed_skill_file_is_validated_scanned_and_listed_as_an_archive(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = pack_skill(_skill(tmp_path / "src", "tide-tables"), tmp_path / "out")
    root = SkillRoot(archive)
    assert root.is_zip and root.read_only
    assert main(["validate", "--format", "json", str(archive)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [skill["name"] for skill in report["skills"]] == ["tide-tables"]
    assert main(["scan", "--format", "json", "--no-cache", str(archive)]) == 0
    scanned = json.loads(capsys.readouterr().out)
    assert [Path(skill["path"]).name for skill in scanned["skills"]] == ["tide-tables"]
    assert main(["fix", str(archive)]) == 2
    assert "archives are read-only" in capsys.readouterr().err

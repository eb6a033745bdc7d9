"""`studio pack` for the clients that load skills from plugins and extensions (Codex, Open Plugin
hosts, Gemini CLI, goose): each package read back and held to its format's documented rules, bad
names refused before anything is written, and a folder of the user's never overwritten."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from studio.skills.install.clientpacks import pack_package
from studio.skills.install.pack import PackError
from studio.skills.install.packrules import (
    CODEX_MARKETPLACE,
    FORMATS,
    codex_marketplace_problems,
    package_problems,
)


def _skill(root: Path, name: str) -> Path:
    folder = root / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "evals").mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Does {name}. Use when "
                                     "asked to.\n---\nRun `python3 scripts/run.py`.\n")
    (folder / "scripts" / "run.py").write_text("print('ok')\n")
    (folder / "scripts" / "run.py").chmod(0o755)
    (folder / "evals" / "evals.json").write_text("{}")
    return folder


def _two(tmp_path: Path) -> list[Path]:
    return [_skill(tmp_path / "src", "tide-tables"), _skill(tmp_path / "src", "invoice-total")]


SINGLE_FOLDER = ["open-plugin", "gemini-extension", "goose-plugin"]


@pytest.mark.parametrize("kind", SINGLE_FOLDER)
def test_a_package_holds_its_manifest_and_skills_and_reads_back_clean(
        kind: str, tmp_path: Path) -> None:
    out = tmp_path / "harbour-kit"
    [manifest_path] = pack_package(kind, _two(tmp_path), out, author="Ada")
    form = FORMATS[kind]
    assert manifest_path == out / form.manifest
    manifest = json.loads(manifest_path.read_text())
    assert manifest["name"] == "harbour-kit" and manifest["version"] == "1.0.0"
    assert form.manifest_problems(manifest) == []
    assert package_problems(kind, out, ["tide-tables", "invoice-total"]) == []
    assert (out / "skills" / "tide-tables" / "scripts" / "run.py").stat().st_mode & 0o100
    assert not (out / "skills" / "tide-tables" / "evals").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["harbour-kit", "src"], "no temp left"


def test_the_open_plugin_manifest_is_in_its_metadata_folder_alone(tmp_path: Path) -> None:
    pack_package("open-plugin", _two(tmp_path), tmp_path / "kit")
    assert [p.name for p in (tmp_path / "kit" / ".plugin").iterdir()] == ["plugin.json"]


def test_a_goose_plugin_is_also_an_agent_plugins_manifest(tmp_path: Path) -> None:
    [path] = pack_package("goose-plugin", _two(tmp_path)[:1], tmp_path / "kit")
    manifest = json.loads(path.read_text())
    assert manifest["$schema"] == "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
    assert manifest["name"] == "tide-tables", "one skill: the package takes its name"


def test_a_gemini_extension_has_the_name_and_version_gemini_requires(tmp_path: Path) -> None:
    [path] = pack_package("gemini-extension", _two(tmp_path), tmp_path / "kit",
                             version="2.1.0", author="Ada")
    manifest = json.loads(path.read_text())
    assert manifest == {"name": "kit", "version": "2.1.0",
                        "description": "Skills: tide-tables, invoice-total"}


def test_a_codex_plugin_sits_in_a_marketplace_that_lists_it(tmp_path: Path) -> None:
    root = tmp_path / "market"
    plugin_json, marketplace_json = pack_package("codex-plugin", _two(tmp_path), root,
                                                    name="harbour-kit")
    assert plugin_json == root / "plugins" / "harbour-kit" / ".codex-plugin" / "plugin.json"
    assert marketplace_json == root / ".agents" / "plugins" / "marketplace.json"
    manifest = json.loads(plugin_json.read_text())
    assert manifest["skills"] == "./skills/"
    assert FORMATS["codex-plugin"].manifest_problems(manifest) == []
    assert package_problems("codex-plugin", plugin_json.parents[1],
                            ["tide-tables", "invoice-total"]) == []
    marketplace = json.loads(marketplace_json.read_text())
    assert marketplace["name"] == "market"
    assert marketplace["plugins"] == [{
        "name": "harbour-kit", "source": {"source": "local", "path": "./plugins/harbour-kit"},
        "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}}]
    assert codex_marketplace_problems(marketplace, root) == []


def test_a_second_codex_plugin_joins_the_marketplace_and_others_stay(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "README.md").parent.mkdir()
    (root / "README.md").write_text("mine\n")
    skills = _two(tmp_path)
    pack_package("codex-plugin", skills[:1], root)
    pack_package("codex-plugin", skills[1:], root)
    pack_package("codex-plugin", skills[:1], root)
    marketplace = json.loads((root / CODEX_MARKETPLACE).read_text())
    assert [p["name"] for p in marketplace["plugins"]] == ["invoice-total", "tide-tables"]
    assert (root / "README.md").read_text() == "mine\n"
    assert codex_marketplace_problems(marketplace, root) == []


def test_packing_again_replaces_the_package_whole(tmp_path: Path) -> None:
    skills = _two(tmp_path)
    pack_package("open-plugin", skills, tmp_path / "kit")
    pack_package("open-plugin", skills[:1], tmp_path / "kit", name="kit")
    assert [p.name for p in (tmp_path / "kit" / "skills").iterdir()] == ["tide-tables"]


@pytest.mark.parametrize("kind", [*SINGLE_FOLDER, "codex-plugin"])
@pytest.mark.parametrize("bad", ["Harbour Kit", "harbour_kit!", "-kit", "kit--two", ""])
def test_a_bad_name_is_refused_saying_the_rule_and_nothing_is_written(
        kind: str, bad: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(PackError) as raised:
        pack_package(kind, _two(tmp_path), out, name=bad)
    assert repr(bad) in str(raised.value) and FORMATS[kind].name_rule in str(raised.value)
    assert not out.exists()


def test_a_folder_name_that_breaks_the_rules_becomes_a_kebab_name(tmp_path: Path) -> None:
    [path] = pack_package("goose-plugin", _two(tmp_path), tmp_path / "Harbour Kit_2")
    assert json.loads(path.read_text())["name"] == "harbour-kit-2"


@pytest.mark.parametrize("kind", SINGLE_FOLDER)
def test_a_folder_of_the_users_is_never_overwritten(kind: str, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "skills").mkdir(parents=True)
    (project / "notes.txt").write_text("mine\n")
    (project / FORMATS[kind].manifest).parent.mkdir(parents=True, exist_ok=True)
    (project / FORMATS[kind].manifest).write_text("{}")
    with pytest.raises(PackError, match=r"notes\.txt"):
        pack_package(kind, _two(tmp_path), project)
    assert (project / "notes.txt").read_text() == "mine\n"
    assert (project / FORMATS[kind].manifest).read_text() == "{}"


def test_a_folder_without_the_manifest_is_not_taken_for_a_package(tmp_path: Path) -> None:
    (tmp_path / "kit" / "skills").mkdir(parents=True)
    with pytest.raises(PackError, match="holds no"):
        pack_package("open-plugin", _two(tmp_path), tmp_path / "kit")


def test_an_unreadable_codex_marketplace_stops_the_pack_before_writing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / CODEX_MARKETPLACE).parent.mkdir(parents=True)
    (root / CODEX_MARKETPLACE).write_text("{ not json")
    with pytest.raises(PackError, match="left as it was"):
        pack_package("codex-plugin", _two(tmp_path), root)
    assert not (root / "plugins").exists()
    assert (root / CODEX_MARKETPLACE).read_text() == "{ not json"


def test_a_skill_with_errors_stops_every_format(tmp_path: Path) -> None:
    skill = _skill(tmp_path / "src", "tide-tables")
    # Frontmatter no client can read (a name's form is only a warning for some of them).
    (skill / "SKILL.md").write_text("---\nname: [tide-tables\ndescription: Reads tides.\n---\nBody.\n")
    for kind in FORMATS:
        with pytest.raises(PackError) as raised:
            pack_package(kind, [skill], tmp_path / kind)
        assert raised.value.findings and "SKILL.md:3:12: SK012" in str(raised.value)
        assert not (tmp_path / kind).exists()


@pytest.mark.parametrize(("kind", "manifest", "problem"), [
    ("codex-plugin", {"name": "kit", "skills": "skills/"}, "starting with ./"),
    ("codex-plugin", {"name": "kit", "skills": "./../elsewhere"}, "inside the package"),
    ("codex-plugin", {"name": "kit", "version": "1.0/../x"}, "version"),
    ("codex-plugin", {"name": "kit_tools"}, "kebab-case"),
    ("open-plugin", {"name": "a..b"}, "without -- or .."),
    ("open-plugin", {"name": "x" * 65}, "1 to 64"),
    ("open-plugin", {"name": "kit", "author": {"name": "Ada", "phone": "1"}}, "author"),
    ("gemini-extension", {"name": "kit"}, "version is required"),
    ("gemini-extension", {"name": "Kit", "version": "1"}, "lowercase"),
    ("goose-plugin", {"name": "kit", "skills": "./skills/"}, "not in the Agent Plugins manifest"),
    ("goose-plugin", {"name": "kit", "$schema": "https://example.com/x"}, "$schema"),
])
def test_manifest_rules(kind: str, manifest: dict[str, object], problem: str) -> None:
    assert any(problem in found for found in FORMATS[kind].manifest_problems(manifest))


def test_codex_marketplace_rules(tmp_path: Path) -> None:
    (tmp_path / "plugins" / "b" / ".codex-plugin").mkdir(parents=True)
    (tmp_path / "plugins" / "b" / ".codex-plugin" / "plugin.json").write_text('{"name": "c"}')
    bad = {"name": "my market", "plugins": [
        {"name": "a", "source": "./plugins/a"},
        {"name": "b", "source": {"source": "local", "path": "./plugins/b"}},
        {"name": "b", "source": {"source": "local", "path": "../b"}},
        {"name": "d", "source": {"source": "local", "path": "./d"}, "policy": {"installation": "MAYBE"}}]}
    problems = codex_marketplace_problems(bad, tmp_path)
    for expected in ["marketplace name", "plugins.0.source must be", "not named 'b'",
                     "listed twice", "starting with ./", "plugins.3.policy", "plugins.3.source.path"]:
        assert any(expected in p for p in problems), expected


def test_a_package_written_into_the_current_folder_keeps_that_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skills = _two(tmp_path)
    (tmp_path / "kit").mkdir()
    monkeypatch.chdir(tmp_path / "kit")
    before = (tmp_path / "kit").stat().st_ino
    assert pack_package("open-plugin", skills, Path("."), name="kit") == [Path(".plugin/plugin.json")]
    pack_package("open-plugin", skills[:1], Path("."), name="kit")
    assert (tmp_path / "kit").stat().st_ino == before, "the folder itself is not replaced"
    assert sorted(p.name for p in (tmp_path / "kit").iterdir()) == [".plugin", "skills"]
    assert [p.name for p in (tmp_path / "kit" / "skills").iterdir()] == ["tide-tables"]


def test_a_marketplace_that_lists_other_kinds_of_source_keeps_them(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / CODEX_MARKETPLACE).parent.mkdir(parents=True)
    theirs = {"name": "theirs", "source": {"source": "git", "url": "https://example.com/x.git"}}
    (root / CODEX_MARKETPLACE).write_text(json.dumps({"name": "team", "plugins": [theirs]}))
    pack_package("codex-plugin", _two(tmp_path)[:1], root)
    marketplace = json.loads((root / CODEX_MARKETPLACE).read_text())
    assert marketplace["name"] == "team"
    assert [p["name"] for p in marketplace["plugins"]] == ["theirs", "tide-tables"]
    assert marketplace["plugins"][0] == theirs


def test_a_marketplace_with_a_name_codex_refuses_stops_before_writing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / CODEX_MARKETPLACE).parent.mkdir(parents=True)
    (root / CODEX_MARKETPLACE).write_text(json.dumps({"name": "my team", "plugins": []}))
    with pytest.raises(PackError, match="marketplace name 'my team'"):
        pack_package("codex-plugin", _two(tmp_path)[:1], root)
    assert not (root / "plugins").exists()


@pytest.mark.parametrize("umask", [0o022, 0o077])
@pytest.mark.parametrize("kind", [*SINGLE_FOLDER, "codex-plugin"])
def test_a_packages_files_and_folders_have_the_users_default_modes(
        kind: str, umask: int, tmp_path: Path) -> None:
    skills = _two(tmp_path)
    old = os.umask(umask)
    try:
        written = pack_package(kind, skills, tmp_path / "kit")
    finally:
        os.umask(old)
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    for folder in [p for p in (tmp_path / "kit").rglob("*") if p.is_dir()]:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~umask, folder
    scripts = list((tmp_path / "kit").rglob("run.py"))
    assert scripts and all(stat.S_IMODE(s.stat().st_mode) == 0o777 & ~umask for s in scripts)

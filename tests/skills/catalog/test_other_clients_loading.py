"""Gemini CLI's, Ollama's, OpenCode's, Copilot's, Cursor's and goose's loading rules, one test
each; and that every rule names its source, an unknown one saying so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.skills.catalog.rules import RULES, UNKNOWN, rules_for
from tests.skills.catalog.catalog_helpers import catalog, entry, write_skill


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return project, home


def test_every_rule_names_its_source_and_an_unknown_one_says_so() -> None:
    for rules in RULES:
        for topic in ("max_depth", "reads_bom", "disable", "budget"):
            assert rules.sources.get(topic), f"{rules.key}: no source for {topic}"
        # The folders and the precedence are the registry record's, with their sources.
        record = rules.record
        assert all(folder.source or record.source for folder in rules.folders)
        assert record.precedence_source
        assert (rules.precedence == "unknown") == record.precedence_source.startswith("unknown")
        assert (rules.reads_bom is None) == rules.sources["reads_bom"].startswith("unknown")
        assert (rules.budget is None) == rules.sources["budget"].startswith("unknown")
        assert rules.depth_known != rules.sources["max_depth"].startswith("unknown")
    assert UNKNOWN.startswith("unknown")


def test_the_registrys_copilot_key_reaches_copilots_rules() -> None:
    assert rules_for("github-copilot") is rules_for("copilot")


# -- Gemini CLI --------------------------------------------------------------------------------

def test_gemini_prefers_the_workspace_and_its_agents_alias(places: tuple[Path, Path]) -> None:
    project, home = places
    alias = write_skill(project / ".agents/skills", "dup")
    own = write_skill(project / ".gemini/skills", "dup")
    user = write_skill(home / ".gemini/skills", "dup")
    result = catalog("gemini-cli", project, home)
    assert entry(result, alias).state == "loaded"
    assert entry(result, own).state == entry(result, user).state == "shadowed"
    assert any("trusted" in notice for notice in result.notices)


def test_gemini_reads_skill_md_at_the_root_or_one_folder_down(places: tuple[Path, Path]) -> None:
    project, home = places
    root = project / ".gemini/skills"
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text("---\nname: top\ndescription: at the root\n---\nbody\n")
    deep = write_skill(root / "group", "deep")
    result = catalog("gemini-cli", project, home)
    assert entry(result, root / "SKILL.md").state == "loaded"
    assert entry(result, deep).state == "not-loaded"


def test_gemini_does_not_see_past_a_bom(places: tuple[Path, Path]) -> None:
    project, home = places
    marked = write_skill(project / ".gemini/skills", "marked", bom=True)
    assert entry(catalog("gemini-cli", project, home), marked).state == "not-loaded"


def test_gemini_skills_disabled_in_either_settings_file(places: tuple[Path, Path]) -> None:
    project, home = places
    off = write_skill(project / ".gemini/skills", "quiet-one")
    (home / ".gemini").mkdir()
    (home / ".gemini/settings.json").write_text(json.dumps({"skills": {"disabled": ["Quiet-One"]}}))
    row = entry(catalog("gemini-cli", project, home), off)
    assert row.state == "disabled" and "skills.disabled" in row.why
    (project / ".gemini/settings.json").write_text(json.dumps({"skills": {"enabled": False}}))
    on = write_skill(project / ".gemini/skills", "other")
    assert entry(catalog("gemini-cli", project, home), on).state == "disabled"


def test_unreadable_settings_become_a_notice(places: tuple[Path, Path]) -> None:
    project, home = places
    write_skill(project / ".gemini/skills", "fine")
    (home / ".gemini").mkdir()
    (home / ".gemini/settings.json").write_text("{not json")
    result = catalog("gemini-cli", project, home)
    assert any("not valid JSON" in notice for notice in result.notices)


# -- Ollama ------------------------------------------------------------------------------------

def test_ollama_prefers_its_own_folder_and_the_project(places: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    project, home = places
    own = write_skill(project / ".ollama/skills", "dup")
    alias = write_skill(project / ".agents/skills", "dup")
    user_dir = tmp_path / "ollama-skills"
    user = write_skill(user_dir, "dup")
    result = catalog("ollama", project, home, env={"OLLAMA_SKILLS": str(user_dir)})
    assert entry(result, own).state == "loaded"
    assert entry(result, alias).state == entry(result, user).state == "shadowed"


def test_ollama_refuses_a_name_unlike_its_folder_or_an_empty_body(
        places: tuple[Path, Path]) -> None:
    project, home = places
    other = write_skill(project / ".ollama/skills", "named", directory="folder")
    empty = write_skill(project / ".ollama/skills", "empty", body="")
    upper = write_skill(project / ".ollama/skills", "Upper")
    result = catalog("ollama", project, home)
    assert "differs from its folder" in entry(result, other).why
    assert "empty" in entry(result, empty).why
    assert entry(result, upper).state == "not-loaded"


# -- OpenCode ----------------------------------------------------------------------------------

def test_opencode_reads_any_depth_and_refuses_long_descriptions(places: tuple[Path, Path]) -> None:
    project, home = places
    deep = write_skill(project / ".opencode/skills/a/b", "deep")
    long = write_skill(project / ".opencode/skills", "long", "q" * 1025)
    result = catalog("opencode", project, home)
    assert entry(result, deep).state == "loaded"
    assert entry(result, long).state == "not-loaded"


def test_opencode_permission_skill_deny(places: tuple[Path, Path]) -> None:
    project, home = places
    denied = write_skill(project / ".opencode/skills", "secret")
    pattern = write_skill(project / ".opencode/skills", "internal-x")
    clash = write_skill(project / ".opencode/skills", "mixed-y")
    (project / "opencode.json").write_text(json.dumps({"permission": {"skill": {
        "secret": "deny", "internal-*": "deny", "mixed-*": "deny", "*-y": "allow"}}}))
    result = catalog("opencode", project, home)
    assert entry(result, denied).state == "disabled"
    assert entry(result, pattern).state == "disabled"
    assert entry(result, clash).state == "unknown"


# -- clients whose precedence and depth no source gives ------------------------------------------

# goose left this list: its source keeps the first skill of a name (skills/mod.rs, below).
@pytest.mark.parametrize("client", ["copilot", "cursor", "opencode"])
def test_a_name_clash_is_unknown_where_no_source_gives_the_order(
        client: str, places: tuple[Path, Path]) -> None:
    project, home = places
    first = write_skill(project / ".claude/skills", "twin")
    second = write_skill(home / ".claude/skills", "twin")
    result = catalog(client, project, home)
    assert entry(result, first).state == entry(result, second).state == "unknown"
    assert "unknown" in entry(result, first).why


def test_goose_keeps_the_first_of_a_name_in_its_folders_order(places: tuple[Path, Path]) -> None:
    project, home = places
    first = write_skill(project / ".claude/skills", "twin")
    later = write_skill(home / ".agents/skills", "twin")
    result = catalog("goose", project, home)
    assert entry(result, first).state == "loaded"
    assert entry(result, later).state == "shadowed"
    assert str(first) in entry(result, later).why


# goose left this list: its source walks every folder below (skills/mod.rs, below).
@pytest.mark.parametrize("client,folder", [("copilot", ".github/skills"),
                                           ("cursor", ".cursor/skills")])
def test_each_clients_own_folder_is_read_and_deeper_is_unknown(
        client: str, folder: str, places: tuple[Path, Path]) -> None:
    project, home = places
    own = write_skill(project / folder, "own")
    deeper = write_skill(project / folder / "group", "deeper")
    result = catalog(client, project, home)
    assert entry(result, own).state == "loaded"
    assert entry(result, deeper).state == "unknown"


def test_goose_reads_any_depth_hidden_folders_and_no_description(
        places: tuple[Path, Path]) -> None:
    project, home = places
    deep = write_skill(project / ".goose/skills/group/.hidden/more", "deep")
    bare = project / ".agents/skills/bare/SKILL.md"
    bare.parent.mkdir(parents=True)
    bare.write_text("---\nname: bare\n---\nDo it.\n", encoding="utf-8")
    slashed = write_skill(project / ".agents/skills", "team/tool", directory="slashed")
    result = catalog("goose", project, home)
    assert entry(result, deep).state == "loaded"
    assert entry(result, bare).state == "loaded"
    assert entry(result, slashed).state == "not-loaded"


def test_cursor_refuses_a_name_unlike_its_folder(places: tuple[Path, Path]) -> None:
    project, home = places
    other = write_skill(project / ".cursor/skills", "named", directory="folder")
    assert entry(catalog("cursor", project, home), other).state == "not-loaded"


def test_a_client_without_a_known_budget_says_so(places: tuple[Path, Path]) -> None:
    project, home = places
    write_skill(project / ".github/skills", "one")
    budget = catalog("copilot", project, home).budget
    assert not budget.known and budget.source.startswith("unknown")

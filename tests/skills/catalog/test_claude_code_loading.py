"""Claude Code's loading rules, one test each (the rules and their sources:
studio/skills/catalog/rules.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.skills.catalog.catalog_helpers import catalog, entry, write_skill


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return project, home


def test_reads_the_project_and_user_claude_folders_not_agents(places: tuple[Path, Path]) -> None:
    project, home = places
    mine = write_skill(project / ".claude/skills", "mine")
    user = write_skill(home / ".claude/skills", "users")
    shared = write_skill(project / ".agents/skills", "shared")
    result = catalog("claude-code", project, home)
    assert entry(result, mine).state == "loaded"
    assert entry(result, user).state == "loaded"
    row = entry(result, shared)
    assert row.state == "not-loaded"
    assert "folder not read by Claude Code" in row.why


def test_a_personal_skill_shadows_a_project_skill_of_the_same_name(
        places: tuple[Path, Path]) -> None:
    project, home = places
    in_project = write_skill(project / ".claude/skills", "deploy")
    personal = write_skill(home / ".claude/skills", "deploy")
    result = catalog("claude-code", project, home)
    assert entry(result, personal).state == "loaded"
    row = entry(result, in_project)
    assert row.state == "shadowed"
    assert str(personal) in row.why


def test_a_skill_one_folder_too_deep_is_beyond_its_scan_depth(places: tuple[Path, Path]) -> None:
    project, home = places
    deep = write_skill(project / ".claude/skills/group", "inner")
    row = entry(catalog("claude-code", project, home), deep)
    assert row.state == "not-loaded"
    assert "scan depth" in row.why


def test_a_bom_no_longer_hides_a_skill(places: tuple[Path, Path]) -> None:
    project, home = places
    with_bom = write_skill(project / ".claude/skills", "marked", bom=True)
    assert entry(catalog("claude-code", project, home), with_bom).state == "loaded"


def test_the_description_and_when_to_use_are_cut_at_1536(places: tuple[Path, Path]) -> None:
    project, home = places
    long = write_skill(project / ".claude/skills", "long", "x" * 1700)
    both = write_skill(project / ".claude/skills", "both", "a" * 1000, extra=f"when_to_use: {'b' * 1000}\n")
    result = catalog("claude-code", project, home)
    assert entry(result, long).description_shown == "x" * 1536
    assert "cut at 1,536" in entry(result, long).why
    shown = entry(result, both).description_shown
    assert len(shown) == 1536 and shown.startswith("a" * 1000 + " b")


def test_skill_listing_max_desc_chars_moves_the_cut(places: tuple[Path, Path]) -> None:
    project, home = places
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text(json.dumps({"skillListingMaxDescChars": 100}))
    long = write_skill(project / ".claude/skills", "long", "x" * 300)
    assert len(entry(catalog("claude-code", project, home), long).description_shown) == 100


def test_skill_overrides_turn_skills_off_and_the_local_file_decides_first(
        places: tuple[Path, Path]) -> None:
    project, home = places
    off = write_skill(project / ".claude/skills", "off-one")
    quiet = write_skill(project / ".claude/skills", "quiet")
    hidden = write_skill(project / ".claude/skills", "slash-only")
    (project / ".claude/settings.json").write_text(json.dumps(
        {"skillOverrides": {"off-one": "off", "quiet": "off"}}))
    (project / ".claude/settings.local.json").write_text(json.dumps(
        {"skillOverrides": {"quiet": "name-only", "slash-only": "user-invocable-only"}}))
    result = catalog("claude-code", project, home)
    row = entry(result, off)
    assert row.state == "disabled" and "skillOverrides" in row.why and "settings.json" in row.why
    assert entry(result, quiet).state == "loaded"
    assert entry(result, quiet).description_shown == ""
    assert entry(result, hidden).state == "disabled"


def test_past_the_budget_descriptions_drop_and_names_stay(places: tuple[Path, Path]) -> None:
    project, home = places
    for name in ("alpha", "beta", "gamma"):
        write_skill(project / ".claude/skills", name, "d" * 100)
    result = catalog("claude-code", project, home, env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "250"})
    assert result.budget.limit == 250
    assert result.budget.over == ["gamma"]
    gamma = next(e for e in result.entries if e.name == "gamma")
    assert gamma.state == "loaded" and gamma.description_shown == ""
    assert "over Claude Code's budget" in gamma.why


def test_the_budget_is_a_fraction_of_the_context_window(places: tuple[Path, Path]) -> None:
    project, home = places
    write_skill(project / ".claude/skills", "one")
    assert catalog("claude-code", project, home).budget.limit == 8000
    assert catalog("claude-code", project, home, context_window=1_000_000).budget.limit == 40_000
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude/settings.json").write_text(json.dumps({"skillListingBudgetFraction": 0.02}))
    assert catalog("claude-code", project, home).budget.limit == 16_000


def test_a_nested_skill_whose_name_is_taken_is_named_dir_colon_name(
        places: tuple[Path, Path]) -> None:
    project, home = places
    write_skill(project / ".claude/skills", "deploy")
    nested = write_skill(project / "web/.claude/skills", "deploy")
    row = entry(catalog("claude-code", project, home), nested)
    assert row.name == "web:deploy"
    assert row.state == "loaded"
    assert "web/" in row.why


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_nested_skill_in_a_gitignored_folder_is_not_loaded(places: tuple[Path, Path]) -> None:
    project, home = places
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("vendor/\n")
    ignored = write_skill(project / "vendor/.claude/skills", "theirs")
    kept = write_skill(project / "app/.claude/skills", "ours")
    result = catalog("claude-code", project, home)
    assert entry(result, ignored).state == "not-loaded"
    assert "gitignored" in entry(result, ignored).why
    assert entry(result, kept).state == "loaded"

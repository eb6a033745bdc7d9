"""Codex's loading rules, one test each (codex-rs/core-skills: loader.rs, render.rs,
config_rules.rs; see studio/skills/catalog/rules.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.skills.catalog.catalog_helpers import catalog, entry, write_skill


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return project, home


def test_reads_agents_codex_home_and_project_codex_folders(places: tuple[Path, Path],
                                                             tmp_path: Path) -> None:
    project, home = places
    repo = write_skill(project / ".agents/skills", "repo-one")
    project_codex = write_skill(project / ".codex/skills", "layer-one")
    user = write_skill(home / ".agents/skills", "user-one")
    codex_home = tmp_path / "codex-home"
    legacy = write_skill(codex_home / "skills", "legacy-one")
    claude = write_skill(project / ".claude/skills", "claude-one")
    result = catalog("codex", project, home, env={"CODEX_HOME": str(codex_home)})
    for path in (repo, project_codex, user, legacy):
        assert entry(result, path).state == "loaded"
    assert entry(result, claude).state == "not-loaded"


def test_two_skills_with_one_name_are_both_listed(places: tuple[Path, Path]) -> None:
    project, home = places
    first = write_skill(project / ".agents/skills", "twin")
    second = write_skill(home / ".agents/skills", "twin")
    result = catalog("codex", project, home)
    assert entry(result, first).state == entry(result, second).state == "loaded"


def test_six_folders_deep_is_read_and_seven_is_not(places: tuple[Path, Path]) -> None:
    project, home = places
    root = project / ".agents/skills"
    six = write_skill(root / "a/b/c/d/e", "six")
    seven = write_skill(root / "a/b/c/d/e/f", "seven", directory="g")
    result = catalog("codex", project, home)
    assert entry(result, six).state == "loaded"
    row = entry(result, seven)
    assert row.state == "not-loaded" and "scan depth" in row.why


def test_a_hidden_folder_is_skipped(places: tuple[Path, Path]) -> None:
    project, home = places
    hidden = write_skill(project / ".agents/skills/.drafts", "draft")
    row = entry(catalog("codex", project, home), hidden)
    assert row.state == "not-loaded" and "hidden" in row.why


def test_a_bom_hides_the_frontmatter(places: tuple[Path, Path]) -> None:
    project, home = places
    marked = write_skill(project / ".agents/skills", "marked", bom=True)
    row = entry(catalog("codex", project, home), marked)
    assert row.state == "not-loaded" and "BOM" in row.why


def test_a_description_over_1024_or_missing_is_invalid(places: tuple[Path, Path]) -> None:
    project, home = places
    long = write_skill(project / ".agents/skills", "long", "y" * 1025)
    empty = write_skill(project / ".agents/skills", "empty", '""')
    fits = write_skill(project / ".agents/skills", "fits", "z" * 1024)
    result = catalog("codex", project, home)
    assert entry(result, long).state == "not-loaded"
    assert "1,024" in entry(result, long).why
    assert "no description" in entry(result, empty).why
    assert entry(result, fits).state == "loaded"


def test_a_skill_without_a_name_takes_its_folders(places: tuple[Path, Path]) -> None:
    project, home = places
    folder = project / ".agents/skills/unnamed"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\ndescription: no name here\n---\nbody\n")
    row = entry(catalog("codex", project, home), folder / "SKILL.md")
    assert row.state == "loaded" and row.name == "unnamed"


def test_skills_config_in_the_users_config_turns_skills_off(places: tuple[Path, Path]) -> None:
    project, home = places
    by_path = write_skill(project / ".agents/skills", "by-path")
    by_name = write_skill(project / ".agents/skills", "by-name")
    both = write_skill(project / ".agents/skills", "both")
    (home / ".codex").mkdir()
    (home / ".codex/config.toml").write_text(
        f'[[skills.config]]\npath = "{by_path}"\nenabled = false\n\n'
        '[[skills.config]]\nname = "by-name"\nenabled = false\n\n'
        f'[[skills.config]]\nname = "both"\npath = "{both}"\nenabled = false\n')
    result = catalog("codex", project, home)
    assert entry(result, by_path).state == "disabled"
    assert "[[skills.config]]" in entry(result, by_path).why
    assert entry(result, by_name).state == "disabled"
    assert entry(result, both).state == "loaded"


def test_a_projects_skills_config_is_not_read(places: tuple[Path, Path]) -> None:
    project, home = places
    skill = write_skill(project / ".agents/skills", "kept")
    (project / ".codex").mkdir()
    (project / ".codex/config.toml").write_text('[[skills.config]]\nname = "kept"\nenabled = false\n')
    row = entry(catalog("codex", project, home), skill)
    assert row.state == "loaded"
    assert "issue 20210" in row.why


def test_past_the_budget_whole_lines_are_left_out(places: tuple[Path, Path]) -> None:
    project, home = places
    for name in ("aa", "bb", "cc"):
        write_skill(project / ".agents/skills", name, "w" * 200)
    result = catalog("codex", project, home, context_window=10_000)
    assert result.budget.unit == "tokens" and result.budget.limit == 200
    assert result.budget.over
    left = next(e for e in result.entries if e.name == result.budget.over[0])
    assert left.state == "not-loaded" and "budget" in left.why
    assert catalog("codex", project, home).budget.limit == 8000


def test_beyond_two_thousand_folders_the_walk_stops(places: tuple[Path, Path]) -> None:
    project, home = places
    root = project / ".agents/skills"
    for index in range(2000):
        (root / f"a{index:04d}").mkdir(parents=True)
    late = write_skill(root, "zz-late")
    row = entry(catalog("codex", project, home), late)
    assert row.state == "not-loaded" and "beyond its count" in row.why

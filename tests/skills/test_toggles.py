"""Turning a skill off in the files Claude Code and Codex read, without clobbering them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from studio.skills.toggles import (
    ToggleError,
    ToggleState,
    claude_override,
    codex_enabled,
    project_of,
    set_claude,
    set_codex,
    set_enabled,
    skill_states,
)

SKILL_FILE = Path("/home/me/.agents/skills/docs-editor/SKILL.md")
# Codex's documented example (its skills page and multi-agents page).
CODEX_EXAMPLE = """# my settings
model = "gpt-5"  # keep this comment

[features]
skills = true

[[skills.config]]
path = "/home/me/.agents/skills/docs-editor/SKILL.md"
enabled = false
"""


def test_claude_code_off_and_on_keeps_every_other_key(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"permissions": {"allow": ["Bash(ls)"]}, "zzUnknown": [1, 2],
                                "skillOverrides": {"other": "name-only"}}))
    set_claude(path, "deploy", enabled=False)
    data = json.loads(path.read_text())
    assert data == {"permissions": {"allow": ["Bash(ls)"]}, "zzUnknown": [1, 2],
                    "skillOverrides": {"other": "name-only", "deploy": "off"}}
    assert claude_override(path, "deploy") == "off"
    set_claude(path, "deploy", enabled=True)
    assert json.loads(path.read_text())["skillOverrides"] == {"other": "name-only"}
    assert claude_override(path, "deploy") is None


def test_claude_code_settings_are_created_when_missing(tmp_path: Path) -> None:
    path = tmp_path / "p" / ".claude" / "settings.json"
    set_claude(path, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {"skillOverrides": {"deploy": "off"}}
    set_claude(tmp_path / "none.json", "deploy", enabled=True)
    assert not (tmp_path / "none.json").exists()


@pytest.mark.parametrize(("text", "words"), [
    ('{"a": 1,', "not valid JSON (line 1"),
    ("[1, 2]", "does not hold a JSON object"),
    ('{"skillOverrides": []}', "`skillOverrides` is not an object"),
])
def test_an_unreadable_claude_file_is_left_as_it_was(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(ToggleError, match=words.replace("(", r"\(")) as caught:
        set_claude(path, "deploy", enabled=False)
    assert str(path) in str(caught.value) and "nothing was changed" in str(caught.value)
    assert path.read_text() == text
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_codexs_example_reads_as_off_and_turning_on_keeps_the_comments(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CODEX_EXAMPLE)
    assert codex_enabled(path, SKILL_FILE, "docs-editor") is False
    set_codex(path, SKILL_FILE, "docs-editor", enabled=True)
    text = path.read_text()
    assert codex_enabled(path, SKILL_FILE, "docs-editor") is True
    assert "# my settings" in text and "# keep this comment" in text
    assert tomllib.loads(text)["features"] == {"skills": True}


def test_codex_off_appends_an_entry_with_the_skill_files_path(tmp_path: Path) -> None:
    path = tmp_path / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text('model = "o3"\n[[skills.config]]\nname = "other"\nenabled = false\n')
    set_codex(path, SKILL_FILE, "docs-editor", enabled=False)
    data = tomllib.loads(path.read_text())
    assert data["model"] == "o3"
    assert data["skills"]["config"] == [{"name": "other", "enabled": False},
                                        {"path": str(SKILL_FILE), "enabled": False}]
    # By name too, as Codex matches either.
    assert codex_enabled(path, Path("/x/other/SKILL.md"), "other") is False
    fresh = tmp_path / "fresh.toml"
    set_codex(fresh, SKILL_FILE, "docs-editor", enabled=False)
    assert tomllib.loads(fresh.read_text()) == {
        "skills": {"config": [{"path": str(SKILL_FILE), "enabled": False}]}}


def test_an_unreadable_codex_file_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("model = \n")
    with pytest.raises(ToggleError, match="is not valid TOML"):
        set_codex(path, SKILL_FILE, "docs-editor", enabled=False)
    assert path.read_text() == "model = \n"


def test_states_for_every_client_and_scope(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    skill_dir = project / ".claude" / "skills" / "deploy"
    assert project_of(skill_dir) == project and project_of(tmp_path / "lib" / "deploy") is None
    set_claude(home / ".claude" / "settings.json", "deploy", enabled=False)
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "config.toml").write_text("bad = \n")
    states = skill_states("deploy", skill_dir / "SKILL.md", project, home)
    good = [s for s in states if isinstance(s, ToggleState)]
    assert [(s.label, s.enabled) for s in good] == [
        ("Claude Code (project)", True), ("Claude Code (user)", False), ("Codex (user)", True),
        ("Gemini CLI (project)", True), ("Gemini CLI (user)", True),
        ("OpenCode (project)", True), ("OpenCode (user)", True)]
    [error] = [s for s in states if isinstance(s, ToggleError)]
    assert "config.toml is not valid TOML" in str(error)
    set_enabled(good[1], "deploy", skill_dir / "SKILL.md", True)
    assert claude_override(home / ".claude" / "settings.json", "deploy") is None

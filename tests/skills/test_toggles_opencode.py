"""Turning a skill off for OpenCode: `"permission": {"skill": {"NAME": "deny"}}` in opencode.json,
as https://opencode.ai/docs/skills documents; the last rule whose pattern matches decides
(anomalyco/opencode packages/opencode/src/permission/evaluate.ts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.skills.clients import BY_KEY
from studio.skills.toggles import ToggleError, opencode_enabled, set_opencode, settings_path

SKILL_FILE = Path("/p/.agents/skills/deploy/SKILL.md")


def test_the_files_are_the_projects_and_the_users_opencode_json(tmp_path: Path) -> None:
    assert BY_KEY["opencode"].toggles == "opencode.json"
    assert settings_path("opencode", "project", tmp_path / "p", tmp_path / "h") == \
        tmp_path / "p" / "opencode.json"
    assert settings_path("opencode", "user", tmp_path / "p", tmp_path / "h") == \
        tmp_path / "h" / ".config" / "opencode" / "opencode.json"


def test_off_and_on_keeps_every_other_setting(tmp_path: Path) -> None:
    path = tmp_path / "opencode.json"
    path.write_text(json.dumps({"$schema": "https://opencode.ai/config.json", "model": "x",
                                "permission": {"bash": "ask", "skill": {"*": "allow"}}}))
    set_opencode(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {
        "$schema": "https://opencode.ai/config.json", "model": "x",
        "permission": {"bash": "ask", "skill": {"*": "allow", "deploy": "deny"}}}
    assert not opencode_enabled(path, "deploy")
    set_opencode(path, SKILL_FILE, "deploy", enabled=True)
    assert json.loads(path.read_text())["permission"]["skill"] == {"*": "allow"}
    assert opencode_enabled(path, "deploy")


def test_the_last_matching_pattern_decides(tmp_path: Path) -> None:
    path = tmp_path / "opencode.json"
    path.write_text('{"permission": {"skill": {"dep*": "deny", "other": "deny"}}}')
    assert not opencode_enabled(path, "deploy") and opencode_enabled(path, "keep")
    set_opencode(path, SKILL_FILE, "deploy", enabled=True)
    assert json.loads(path.read_text())["permission"]["skill"] == {
        "dep*": "deny", "other": "deny", "deploy": "allow"}
    assert opencode_enabled(path, "deploy")
    set_opencode(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text())["permission"]["skill"] == {
        "dep*": "deny", "other": "deny", "deploy": "deny"}


def test_a_missing_file_is_made_only_to_turn_a_skill_off(tmp_path: Path) -> None:
    path = tmp_path / "home" / ".config" / "opencode" / "opencode.json"
    set_opencode(path, SKILL_FILE, "deploy", enabled=True)
    assert not path.exists()
    set_opencode(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {"permission": {"skill": {"deploy": "deny"}}}


@pytest.mark.parametrize(("text", "words"), [
    ('{\n  // comment\n  "model": "x"\n}', "comments"),
    ('{"permission": "allow"}', "`permission` is not an object"),
    ('{"permission": {"skill": "ask"}}', "`permission.skill` is not an object"),
    ('{"permission": {"skill": {"a": 1}}}', "`permission.skill` is not an object"),
])
def test_a_file_the_studio_cannot_keep_whole_is_left_as_it_was(
        tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "opencode.json"
    path.write_text(text)
    with pytest.raises(ToggleError, match=words) as caught:
        set_opencode(path, SKILL_FILE, "deploy", enabled=False)
    assert str(path) in str(caught.value) and "nothing was changed" in str(caught.value)
    assert path.read_text() == text


def test_null_sections_read_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "opencode.json"
    path.write_text('{"permission": null}')
    assert opencode_enabled(path, "deploy")
    set_opencode(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {"permission": {"skill": {"deploy": "deny"}}}

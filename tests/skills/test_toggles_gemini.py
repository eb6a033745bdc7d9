"""Turning a skill off for Gemini CLI: `skills.disabled` in its settings.json, as `/skills disable`
writes it (google-gemini/gemini-cli packages/cli/src/utils/skillSettings.ts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.skills.toggles import ToggleError, gemini_enabled, set_gemini

SKILL_FILE = Path("/p/.agents/skills/deploy/SKILL.md")


def test_off_and_on_keeps_every_other_setting(tmp_path: Path) -> None:
    path = tmp_path / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"ui": {"theme": "dark"},
                                "skills": {"enabled": True, "disabled": ["other"]}}))
    set_gemini(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {
        "ui": {"theme": "dark"}, "skills": {"enabled": True, "disabled": ["other", "deploy"]}}
    assert not gemini_enabled(path, "deploy")
    set_gemini(path, SKILL_FILE, "deploy", enabled=True)
    assert json.loads(path.read_text())["skills"]["disabled"] == ["other"]
    assert gemini_enabled(path, "deploy")


def test_names_match_without_regard_to_case_as_gemini_cli_matches_them(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"skills": {"disabled": ["Deploy", "DEPLOY", "keep"]}}')
    assert not gemini_enabled(path, "deploy")
    set_gemini(path, SKILL_FILE, "deploy", enabled=True)
    assert json.loads(path.read_text()) == {"skills": {"disabled": ["keep"]}}


def test_the_file_is_made_when_missing_and_left_alone_when_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "home" / ".gemini" / "settings.json"
    set_gemini(path, SKILL_FILE, "deploy", enabled=True)
    assert not path.exists()
    set_gemini(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {"skills": {"disabled": ["deploy"]}}
    before = path.stat().st_mtime_ns
    set_gemini(path, SKILL_FILE, "deploy", enabled=False)
    assert path.stat().st_mtime_ns == before


@pytest.mark.parametrize(("text", "words"), [
    ('{\n  // my theme\n  "ui": {}\n}', "comments"),
    ('{"skills": []}', "`skills` is not an object"),
    ('{"skills": {"disabled": "deploy"}}', "`skills.disabled` is not a list of names"),
    ('{"skills": {"disabled": [1]}}', "`skills.disabled` is not a list of names"),
])
def test_a_file_the_studio_cannot_keep_whole_is_left_as_it_was(
        tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(ToggleError, match=words.replace("(", r"\(")) as caught:
        set_gemini(path, SKILL_FILE, "deploy", enabled=False)
    assert str(path) in str(caught.value) and "nothing was changed" in str(caught.value)
    assert path.read_text() == text


def test_null_sections_read_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"skills": null}')
    assert gemini_enabled(path, "deploy")
    set_gemini(path, SKILL_FILE, "deploy", enabled=False)
    assert json.loads(path.read_text()) == {"skills": {"disabled": ["deploy"]}}

"""The library's "On in Clients" submenu shows and toggles what Claude Code and Codex read."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QMenu, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from studio.skills.scan.roots import SkillRoot, scan_root
from studio.skills.summary import SkillSummary
from studio.ui.library.skill_toggles import add_toggle_menu
from tests.skills.helpers import frontmatter, write_skill


def project_skill(tmp_path: Path) -> SkillSummary:
    root = tmp_path / "project" / ".claude" / "skills"
    write_skill(root, "deploy", frontmatter("deploy"))
    [summary] = scan_root(SkillRoot(root)).skills
    return summary


def test_the_submenu_shows_each_client_and_scope_and_toggles_the_file(
        qtbot: QtBot, tmp_path: Path) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    summary = project_skill(tmp_path)
    home = tmp_path / "home"
    submenu = add_toggle_menu(QMenu(parent), summary, parent, home)
    assert submenu is not None
    actions = {a.text(): a for a in submenu.actions()}
    assert list(actions) == ["Claude Code (project)", "Claude Code (user)", "Codex (project)",
                             "Codex (user)", "Gemini CLI (project)", "Gemini CLI (user)",
                             "OpenCode (project)", "OpenCode (user)"]
    assert all(a.isChecked() for a in actions.values())
    actions["Claude Code (project)"].setChecked(False)
    settings = tmp_path / "project" / ".claude" / "settings.json"
    assert json.loads(settings.read_text()) == {"skillOverrides": {"deploy": "off"}}
    actions["Codex (user)"].setChecked(False)
    assert str(summary.skill_file) in (home / ".codex" / "config.toml").read_text()
    actions["Gemini CLI (project)"].setChecked(False)
    gemini = tmp_path / "project" / ".gemini" / "settings.json"
    assert json.loads(gemini.read_text()) == {"skills": {"disabled": ["deploy"]}}
    # A file spoilt in the meantime: a message, and the file left as it was.
    settings.write_text("{oops")
    actions["Claude Code (project)"].setChecked(True)
    [box] = parent.findChildren(QMessageBox)
    assert "not valid JSON" in box.text() and settings.read_text() == "{oops"
    box.close()


def test_an_unreadable_file_is_shown_disabled_with_its_reason(qtbot: QtBot, tmp_path: Path) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text("[")
    submenu = add_toggle_menu(QMenu(parent), project_skill(tmp_path), parent, home)
    assert submenu is not None
    [bad] = [a for a in submenu.actions() if not a.isEnabled()]
    assert bad.text() == "A settings file cannot be read" and "not valid JSON" in bad.toolTip()

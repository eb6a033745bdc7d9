"""The Clients view in the window: opened from a skill's tab in one click, focused on that skill,
it answers for every client and shows the chosen client's catalog with states and reasons."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from tests.skills.catalog.catalog_helpers import write_skill
from tests.ui.accessibility import unnamed_controls, unreachable_controls
from tests.ui.helpers import WindowFactory


def _project(tmp_path: Path) -> tuple[Path, Path, Path]:
    project = tmp_path / "project"
    home = Path(os.environ["HOME"])
    shared = write_skill(project / ".agents/skills", "shared", "Shared across agents.")
    write_skill(project / ".claude/skills", "deploy", "Deploy from the project.")
    write_skill(home / ".claude/skills", "deploy", "Deploy my way.")
    return project, home, shared


def test_one_click_from_a_skill_tab_says_why_claude_code_does_not_load_it(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    project, _home, shared = _project(tmp_path)
    window = make_window(project / ".agents/skills")
    tab = window.editors.open_skill(shared.parent)
    assert tab is not None
    button = tab.views.findChild(QToolButton, "whichClients")
    assert isinstance(button, QToolButton) and button.isVisible()
    assert button.text() == "Clients…" and button.accessibleName() == "Which clients load this skill?"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    view = window.clients.view
    assert view is not None
    qtbot.waitUntil(lambda: view.model.catalog is not None and view.answer.isVisible(),
                    timeout=20000)
    assert view.chosen_project() == project
    assert view.chosen_client() == "claude-code"
    row = view.table.currentIndex().row()
    entry = view.model.entry(row)
    assert entry is not None and entry.path == shared
    assert entry.state == "not-loaded"
    assert "folder not read by Claude Code" in view.model.index(row, 2).data()
    answer = view.answer.text()
    assert "Claude Code: <b>not-loaded</b>" in answer
    assert "Codex: <b>loaded</b>" in answer


def test_choosing_another_client_rescans(qtbot: QtBot, make_window: WindowFactory,
                                         tmp_path: Path) -> None:
    project, home, _shared = _project(tmp_path)
    window = make_window()
    window.clients.action.trigger()
    view = window.clients.view
    assert view is not None
    view.show_for(project)
    qtbot.waitUntil(lambda: view.model.catalog is not None
                    and view.model.catalog.client == "claude-code", timeout=20000)
    states = {(e.path, e.state) for e in view.model.catalog.entries}
    assert (home / ".claude/skills/deploy/SKILL.md", "loaded") in states
    assert (project / ".claude/skills/deploy/SKILL.md", "shadowed") in states
    assert "Listing:" in view.budget.text()
    view.client.setCurrentIndex(view.client.findData("codex"))
    qtbot.waitUntil(lambda: view.model.catalog is not None
                    and view.model.catalog.client == "codex", timeout=20000)
    assert view.model.catalog.count("loaded") == 1


def test_every_control_is_named_and_reachable(qtbot: QtBot, make_window: WindowFactory,
                                              tmp_path: Path) -> None:
    project, _home, _shared = _project(tmp_path)
    window = make_window()
    window.clients.action.trigger()
    view = window.clients.view
    assert view is not None
    view.show_for(project)
    qtbot.waitUntil(lambda: view.model.catalog is not None, timeout=20000)
    assert unnamed_controls(view) == []
    assert unreachable_controls(view) == []

"""File ▸ Install Skills from a git repository with client links, and Update and Remove in the
library's context menu, on a project laid out by the skills CLI."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.skills.install.lockfile import read_lock
from studio.ui.library.install_url import InstallPlanDialog, InstallUrlDialog
from tests.skills.helpers import frontmatter
from tests.ui.helpers import WindowFactory, click, open_dialog, start

Button = QMessageBox.StandardButton


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "skills" / "alpha").mkdir(parents=True)
    (repo / "skills" / "alpha" / "SKILL.md").write_text(frontmatter("alpha"), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "one"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                       cwd=repo, check=True, capture_output=True)
    return repo


def test_install_with_a_client_link_then_update_and_remove_from_the_context_menu(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    agents = tmp_path / "project" / ".agents" / "skills"
    agents.mkdir(parents=True)
    window = make_window(agents)
    task = start(window.installs.install_from_url())
    asked = open_dialog(qtbot, InstallUrlDialog)
    assert asked.folder() == agents and asked.client_boxes["claude-code"].isEnabled()
    asked.url_edit.setText(f"file://{repo}")
    asked.client_boxes["claude-code"].setChecked(True)
    asked.ok_button.click()
    shown = open_dialog(qtbot, InstallPlanDialog, timeout=10000)
    assert "alpha: new" in shown.details.toPlainText()
    shown.install_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is True
    link = tmp_path / "project" / ".claude" / "skills" / "alpha"
    assert link.is_symlink() and os.readlink(link) == "../../.agents/skills/alpha"
    (record,) = read_lock(agents)
    assert record.source_type == "git" and record.studio["clients"] == ["claude-code"]
    qtbot.waitUntil(lambda: window.library.summary_for(agents / "alpha") is not None,
                    timeout=10000)

    panel = window.library_panel
    panel.select_skill(agents / "alpha")
    index = panel.tree.currentIndex()
    panel.tree.customContextMenuRequested.emit(panel.tree.visualRect(index).center())
    assert panel.last_menu is not None
    texts = [a.text() for a in panel.last_menu.actions() if not a.isSeparator()]
    assert texts == ["On in Clients", "Update", "Remove…"]
    panel.last_menu.close()

    task = start(window.installs.update_skill(agents / "alpha"))
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is False  # nothing changed upstream: up to date, nothing written

    task = start(window.installs.remove_skill(agents / "alpha"))
    box = open_dialog(qtbot, QMessageBox)
    assert str(link) in box.informativeText()
    click(box, Button.Yes)
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is True
    assert not os.path.lexists(link) and not (agents / "alpha").exists()
    assert read_lock(agents) == []
    assert window.library.summary_for(agents / "alpha") is None


def test_a_link_from_one_root_into_another_shows_the_skill_once_in_its_folder(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    shared = tmp_path / "shared"
    (shared / "common").mkdir(parents=True)
    (shared / "common" / "SKILL.md").write_text(frontmatter("common"), encoding="utf-8")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "common").symlink_to(shared / "common")
    window = make_window(mine, shared)
    qtbot.waitUntil(lambda: window.library.summary_for(shared / "common") is not None,
                    timeout=10000)
    qtbot.waitUntil(lambda: all(not state.scanning for state in window.library.roots()),
                    timeout=10000)
    assert [s.directory for s in window.library.summaries()] == [shared / "common"]
    assert window.library.summary_for(mine / "common") is None
    # Reached first through the link from `mine` (a root scanned before `shared`), not SK302.
    assert window.library.root_of_skill(shared / "common") == mine


def test_update_of_a_hostile_lock_entry_runs_nothing_and_says_which_field(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    marker = tmp_path / "MARKER"
    project = tmp_path / "project"
    agents = project / ".agents" / "skills"
    (agents / "alpha").mkdir(parents=True)
    (agents / "alpha" / "SKILL.md").write_text(frontmatter("alpha"), encoding="utf-8")
    entry = {"source": f"file://{repo}", "sourceType": "git",
             "ref": f"--upload-pack=touch {marker};:", "computedHash": ""}
    (project / "skills-lock.json").write_text(
        json.dumps({"version": 1, "skills": {"alpha": entry}}), encoding="utf-8")
    window = make_window(agents)
    task = start(window.installs.update_skill(agents / "alpha"))
    box = open_dialog(qtbot, QMessageBox)
    assert "the entry 'alpha' was refused: \"ref\" '--upload-pack=" in box.text() + box.informativeText()
    click(box, Button.Ok)
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is False and not marker.exists()

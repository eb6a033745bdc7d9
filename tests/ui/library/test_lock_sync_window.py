"""Sync and Check in the library's menu for a project's `.agents/skills`, and the install dialog
showing the whole commit and each file's digest before anything is written."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.cli import main
from studio.skills.install import InstallPlan, prepare_source
from studio.ui.library.install_url import InstallPlanDialog
from studio.ui.library.lock_sync import LockReportDialog
from studio.ui.library.tree_menus import locked_folder
from tests.skills.helpers import frontmatter
from tests.ui.accessibility import unnamed_controls, unreachable_controls
from tests.ui.helpers import WindowFactory, click, open_dialog, start

Button = QMessageBox.StandardButton


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for name in ("alpha", "beta"):
        (repo / "skills" / name).mkdir(parents=True)
        (repo / "skills" / name / "SKILL.md").write_text(frontmatter(name), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "one"], ["tag", "v1"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                       cwd=repo, check=True, capture_output=True)
    return repo


def test_check_then_sync_from_the_roots_menu(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", f"file://{repo}#v1", "--project", str(project)]) == 0
    agents = project / ".agents" / "skills"
    original = (agents / "alpha" / "SKILL.md").read_bytes()
    (agents / "alpha" / "SKILL.md").write_text("edited\n", encoding="utf-8")
    shutil.rmtree(agents / "beta")
    window = make_window(agents)

    panel = window.library_panel
    root = panel.model.index(0, 0)
    panel.tree.customContextMenuRequested.emit(panel.tree.visualRect(root).center())
    assert panel.last_menu is not None
    texts = [a.text() for a in panel.last_menu.actions() if not a.isSeparator()]
    assert texts[:2] == ["Sync", "Check"]
    panel.last_menu.close()

    panel.check_requested.emit(agents)  # as the menu's Check does
    qtbot.waitUntil(lambda: window.lock_syncs.last_dialog is not None, timeout=10000)
    shown = window.lock_syncs.last_dialog
    assert isinstance(shown, LockReportDialog)
    details = shown.details.toPlainText()
    assert "alpha: modified" in details and "changed SKILL.md" in details
    assert "beta: missing" in details
    assert unnamed_controls(shown) == [] and unreachable_controls(shown) == []
    assert "2 of 2 skills differ" in shown.summary.text()
    shown.close()

    task = start(window.lock_syncs.sync(agents))
    box = open_dialog(qtbot, QMessageBox)
    assert "alpha" in box.informativeText() and "lost" in box.informativeText()
    click(box, Button.Yes)
    qtbot.waitUntil(task.done, timeout=15000)
    assert task.result() is True
    assert (agents / "alpha" / "SKILL.md").read_bytes() == original
    assert (agents / "beta" / "SKILL.md").is_file()
    assert window.lock_syncs.last_dialog is not shown
    assert "restored alpha" in window.lock_syncs.last_dialog.details.toPlainText()

    task = start(window.lock_syncs.check(agents))
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is True


def test_the_install_dialog_shows_the_commit_and_each_files_digest(
    qtbot: QtBot, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    plan: InstallPlan = prepare_source(f"file://{repo}#v1", tmp_path / "into")
    try:
        dialog = InstallPlanDialog(plan)
        qtbot.addWidget(dialog)
        text = dialog.details.toPlainText()
        commit = subprocess.run(["git", "rev-parse", "v1^{commit}"], cwd=repo, check=True,
                                capture_output=True, text=True).stdout.strip()
        assert f"commit {commit}" in text
        digest = hashlib.sha256((repo / "skills/alpha/SKILL.md").read_bytes()).hexdigest()
        assert f"{digest}  SKILL.md" in text
    finally:
        plan.discard()
    assert not (tmp_path / "into" / "alpha").exists()


def test_sync_works_on_the_folder_the_lock_file_records(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude" / "skills").mkdir(parents=True)
    assert locked_folder(project) is None
    (project / "skills-lock.json").write_text('{"version": 1, "skills": {}}', encoding="utf-8")
    # A fresh clone: the lock file is there, the skills are not yet.
    assert locked_folder(project) == project / ".agents" / "skills"
    assert locked_folder(project / ".claude" / "skills") == project / ".agents" / "skills"
    own = tmp_path / "own"
    (own / "alpha").mkdir(parents=True)
    (own / "alpha" / "SKILL.md").write_text(frontmatter("alpha"), encoding="utf-8")
    (own / "skills-lock.json").write_text('{"version": 1, "skills": {}}', encoding="utf-8")
    assert locked_folder(own) == own
    assert locked_folder(tmp_path) is None


def test_update_in_the_window_leaves_a_pinned_skill_and_says_so(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    assert main(["install", f"file://{repo}#v1", "--pin", "--project", str(project)]) == 0
    agents = project / ".agents" / "skills"
    before = (agents / "alpha" / "SKILL.md").read_bytes()
    window = make_window(agents)
    task = start(window.installs.update_skill(agents / "alpha"))
    box = open_dialog(qtbot, QMessageBox)
    assert "pinned at commit" in box.text() and "without --pin" in box.text()
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is False
    assert (agents / "alpha" / "SKILL.md").read_bytes() == before

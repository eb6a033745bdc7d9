"""File ▸ Install from URL: what the archive holds is shown, and only Install writes it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.ui.library.install_url import InstallPlanDialog, InstallUrlDialog
from tests.fakes.files import FileServer
from tests.skills.packs import good_pack, skill_md, zip_pack
from tests.ui.helpers import WindowFactory, open_dialog, start


@pytest.fixture
def server() -> Iterator[FileServer]:
    with FileServer({"/pack.zip": zip_pack(good_pack()),
                     "/slip.zip": zip_pack({"a/SKILL.md": skill_md("a"), "../x": "x"})}) as running:
        assert isinstance(running, FileServer)
        yield running


def test_the_pack_is_shown_then_installed_into_the_chosen_root(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, server: FileServer
) -> None:
    window = make_window(skills_root)
    assert window.install_url_action in window.menus.file.actions()
    task = start(window.installs.install_from_url())
    asked = open_dialog(qtbot, InstallUrlDialog)
    assert asked.folder() == skills_root
    assert not asked.ok_button.isEnabled()
    asked.url_edit.setText(server.url + "/pack.zip")
    asked.ok_button.click()
    shown = open_dialog(qtbot, InstallPlanDialog, timeout=10000)
    assert "alpha: new" in shown.details.toPlainText()
    assert shown.install_button.text() == "Install"
    assert not (skills_root / "alpha").exists()
    before = {path for path in skills_root.rglob("*") if path.is_file()}
    preview = shown.details.toPlainText()
    shown.install_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is True
    assert (skills_root / "alpha" / "SKILL.md").is_file()
    # The preview named every file the install wrote, the lock file among them.
    written = {path for path in skills_root.rglob("*") if path.is_file()} - before
    assert skills_root / "skills-lock.json" in written
    for path in written:
        assert str(path) in preview, path
    qtbot.waitUntil(lambda: window.library.summary_for(skills_root / "beta") is not None,
                    timeout=10000)
    assert window.statusBar().currentMessage().startswith("Installed 2 skills into")
    # A download report arriving late leaves the outcome in place.
    window.installs._show_download(0, 0)
    assert window.statusBar().currentMessage().startswith("Installed 2 skills into")


def test_cancel_writes_nothing_and_a_bad_archive_is_refused(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, server: FileServer
) -> None:
    window = make_window(skills_root)
    before = sorted(p.name for p in skills_root.iterdir())
    task = start(window.installs.install_from_url())
    asked = open_dialog(qtbot, InstallUrlDialog)
    asked.url_edit.setText(server.url + "/pack.zip")
    asked.ok_button.click()
    open_dialog(qtbot, InstallPlanDialog, timeout=10000).reject()
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is False

    task = start(window.installs.install_from_url())
    asked = open_dialog(qtbot, InstallUrlDialog)
    asked.url_edit.setText(server.url + "/slip.zip")
    asked.ok_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is False
    assert sorted(p.name for p in skills_root.iterdir()) == before


def test_installed_skills_show_and_filter_by_where_they_came_from(
    qtbot: QtBot, make_window: WindowFactory, skills_root: Path, server: FileServer
) -> None:
    window = make_window(skills_root)
    task = start(window.installs.install_from_url())
    asked = open_dialog(qtbot, InstallUrlDialog)
    asked.url_edit.setText(server.url + "/pack.zip")
    asked.ok_button.click()
    open_dialog(qtbot, InstallPlanDialog, timeout=10000).install_button.click()
    qtbot.waitUntil(task.done, timeout=10000)
    qtbot.waitUntil(lambda: window.library.summary_for(skills_root / "beta") is not None,
                    timeout=10000)
    model = window.library_model
    tooltip = model.skill_index(skills_root / "alpha").data(Qt.ItemDataRole.ToolTipRole)
    assert f"Installed from {server.url}/pack.zip" in tooltip
    assert "Installed from" not in model.skill_index(skills_root / "web-search").data(
        Qt.ItemDataRole.ToolTipRole)
    panel = window.library_panel
    panel.filter_edit.setText("127.0.0.1")
    panel.apply_filter()
    assert panel.count_label.text() == "2 of 5 skills match"


def test_each_clients_box_says_where_its_link_goes(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = InstallUrlDialog([tmp_path / ".agents" / "skills"])
    qtbot.addWidget(dialog)
    tips = {key: box.toolTip() for key, box in dialog.client_boxes.items()}
    assert tips["claude-code"] == ("In a project: a link in .claude/skills. For you: a link in "
                                   "~/.claude/skills.")
    assert tips["gemini-cli"] == ("In a project: it reads .agents/skills itself. For you: a link "
                                  "in ~/.gemini/skills.")
    assert tips["goose"] == ("In a project: it reads .agents/skills itself. For you: it reads "
                             "~/.agents/skills itself.")

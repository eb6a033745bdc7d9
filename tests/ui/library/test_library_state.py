"""Every count and every problem list reads the one core `Library`: regression tests for two
stale views (after Ctrl+N the library said 8 skills while the status bar and the chat said 7;
after renaming a new skill with F2 the form kept the old "folder is named ..." error while
Problems said "No problems")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from studio.skills.scan import SkillRoot, SkillsFound
from studio.skills.scan.roots import scan_root
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.library.skill_name import NewSkillDialog, RenameSkillDialog
from studio.ui.mainwindow import MainWindow
from tests.ui.helpers import WindowFactory, open_dialog


def _new_skill_with_ctrl_n(qtbot: QtBot, window: MainWindow, name: str) -> SkillEditorTab:
    window.activateWindow()
    qtbot.keyClick(window.library_panel.tree, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    dialog = open_dialog(qtbot, NewSkillDialog)
    dialog.name_edit.setText(name)
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: (tab := window.editors.current_skill_tab()) is not None
                    and tab.directory.name == name)
    tab = window.editors.current_skill_tab()
    assert tab is not None
    return tab


def test_after_ctrl_n_the_library_the_status_bar_and_the_chat_count_the_same(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    assert window.library.skill_count == 3
    _new_skill_with_ctrl_n(qtbot, window, "invoice-parser")

    summaries = window.library.summaries()
    loadable = sum(1 for summary in summaries if summary.loadable)
    assert len(summaries) == window.library.skill_count == 4
    assert window.library_panel.count_label.text() == "4 skills in 1 root"
    assert window.scan_label.text() == "4 skills"
    assert window.chat.pane.skill_chooser.skills_button.text() == f"All in the library ({loadable})"
    assert "invoice-parser" in [s.name for s in window.chat.pane.skills.library_skills()]


def test_after_renaming_a_new_skill_the_form_and_problems_agree(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = _new_skill_with_ctrl_n(qtbot, window, "draft-skill")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    tab.form.name_edit.setFocus()
    qtbot.keyClick(tab.form.name_edit, Qt.Key.Key_F2)
    dialog = open_dialog(qtbot, RenameSkillDialog)
    dialog.name_edit.setText("final-skill")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: tab.directory == skills_root / "final-skill")

    assert tab.form.name_edit.text() == "final-skill"
    assert "folder is named" not in tab.form.name_message.text()
    assert tab.form.name_edit.property("problem") not in ("error", "warning")
    shown = [problem.diagnostic for problem in window.problems_panel.model.problems()]
    assert shown == tab.diagnostics
    assert [p.diagnostic for p in window.library.problems_of(tab.directory)] == tab.diagnostics
    summary = window.library.summary_for(skills_root / "final-skill")
    assert summary is not None and summary.name == "final-skill"
    assert window.library.summary_for(skills_root / "draft-skill") is None


def test_adding_a_root_shows_the_scan_then_the_count(qtbot: QtBot, make_window: WindowFactory,
                                                     skills_root: Path) -> None:
    window = make_window()
    window.roots.add_root(skills_root)
    assert window.scan_progress.isVisibleTo(window)
    assert window.scan_label.text().startswith("Scanning skills…")
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
    assert not window.scan_progress.isVisibleTo(window)
    assert window.scan_label.text() == "3 skills"
    assert window.library_panel.count_label.text() == "3 skills in 1 root"


def test_while_listed_skills_wait_for_validation_the_status_bar_counts_them_checked(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    """A cold scan lists the skills first: the status bar says how many are checked so far."""
    window = make_window()
    window.library.add_root(SkillRoot(skills_root))
    folders = sorted(path for path in skills_root.iterdir() if (path / "SKILL.md").exists())
    listed = [SkillSummary(skills_root, folder, folder / "SKILL.md", folder.name, "Does it.", False,
                           True, (), checked=False) for folder in folders]
    window.loader.queue_found(SkillsFound.of(skills_root, listed))
    window.loader.drain()
    assert window.scan_label.text() == f"Checking skills… 0 of {len(folders)}"
    checked = scan_root(SkillRoot(skills_root)).skills
    window.loader.queue_found(SkillsFound.of(skills_root, checked[:1]))
    window.loader.drain()
    assert window.scan_label.text() == f"Checking skills… 1 of {len(folders)}"

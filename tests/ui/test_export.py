"""Skill ▸ Export…: the open skill packed as the user chooses, off the window's thread; a skill
with errors is not exported and the message says why."""

from __future__ import annotations

import zipfile
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.ui.dialogs.export import ExportDialog
from tests.ui.helpers import WindowFactory, open_dialog, start, write_skill


def test_the_open_skill_is_exported_as_a_skill_archive(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    window.editors.open_skill(skills_root / "pdf-tools")
    assert window.export_action in window.menus.skill.actions()
    task = start(window.exports.export_skill())
    dialog = open_dialog(qtbot, ExportDialog)
    assert dialog.destination == skills_root
    dialog.destination_edit.setText(str(tmp_path / "dist"))
    dialog.accept()
    qtbot.waitUntil(task.done, timeout=10000)
    packed = task.result()
    assert packed is not None and packed.path == tmp_path / "dist" / "pdf-tools.skill"
    assert "pdf-tools/SKILL.md" in zipfile.ZipFile(packed.path).namelist()
    qtbot.waitUntil(lambda: "Exported pdf-tools" in window.statusBar().currentMessage())


def test_a_plugin_is_exported_in_the_folder_given(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    window.editors.open_skill(skills_root / "web-search")
    task = start(window.exports.export_skill())
    dialog = open_dialog(qtbot, ExportDialog)
    dialog.form_combo.setCurrentIndex(dialog.form_combo.findData("plugin"))
    assert "kebab-case" in dialog.hint.text()
    dialog.destination_edit.setText(str(tmp_path / "search-tools"))
    dialog.accept()
    qtbot.waitUntil(task.done, timeout=10000)
    assert (tmp_path / "search-tools" / ".claude-plugin" / "plugin.json").is_file()
    assert (tmp_path / "search-tools" / "skills" / "web-search" / "SKILL.md").is_file()


def test_a_skill_with_errors_is_not_exported_and_the_user_is_told_why(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    broken = write_skill(skills_root, "Broken_Skill")
    window = make_window(skills_root)
    window.editors.open_skill(broken)
    task = start(window.exports.export_skill())
    dialog = open_dialog(qtbot, ExportDialog)
    dialog.destination_edit.setText(str(tmp_path / "dist"))
    dialog.accept()
    box = open_dialog(qtbot, QMessageBox, timeout=10000)
    assert "Broken_Skill was not exported" in box.text() and "error" in box.text()
    box.close()
    qtbot.waitUntil(task.done)
    assert task.result() is None
    assert not (tmp_path / "dist" / "Broken_Skill.skill").exists()

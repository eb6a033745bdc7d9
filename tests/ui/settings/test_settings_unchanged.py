"""Saving Settings without a change changes nothing the user sees (issue 44: the editor switched
to another font)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.settings.settings_dialog import SettingsDialog
from tests.ui.helpers import WindowFactory, open_dialog, start


def test_accepting_settings_unchanged_keeps_the_editors_font(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "pdf-tools")
    assert isinstance(tab, SkillEditorTab)
    before = tab.body_editor.font().toString(), tab.raw_editor.font().toString()
    saved = window.settings.editor_font.family, window.settings.editor_font.size

    task = start(window.open_settings())
    dialog = open_dialog(qtbot, SettingsDialog)
    dialog.accept()
    qtbot.waitUntil(task.done)

    assert task.result() is True
    assert (window.settings.editor_font.family, window.settings.editor_font.size) == saved
    assert (tab.body_editor.font().toString(), tab.raw_editor.font().toString()) == before


"""The Help menu: About names the versions and the folders and opens the log folder; Keyboard
Shortcuts lists every shortcut the window's actions define, filtered as you type, on Ctrl+/;
the Manual shows the docs/ pages rendered, following the links between them."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio import __version__
from studio.paths import cache_dir, config_dir, data_dir, log_file, manual_folder
from studio.ui.about import OPEN_LOGS
from studio.ui.manual import ManualDialog
from studio.ui.shortcuts import ShortcutsDialog
from tests.ui.helpers import WindowFactory, open_dialog


def _help(window: object, text: str) -> QAction:
    return next(a for a in window.menus.help.actions() if a.text() == text)  # type: ignore[attr-defined]


def test_help_about_names_the_versions_the_folders_and_opens_the_log_folder(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window = make_window(skills_root)
    assert [a.text() for a in window.menuBar().actions()][-1] == "&Help"
    _help(window, "&About Skill Studio").trigger()
    box = open_dialog(qtbot, QMessageBox)
    text = box.text()
    for expected in (__version__, qVersion(), PYSIDE_VERSION, str(config_dir()), str(data_dir()),
                     str(cache_dir()), str(log_file())):
        assert expected in text, expected
    assert str(config_dir()) != str(data_dir()) != str(cache_dir())
    button = next(b for b in box.buttons() if b.text() == OPEN_LOGS)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert [url.toLocalFile() for url in opened] == [str(log_file().parent)]


def test_keyboard_shortcuts_lists_the_window_s_actions_and_filters_them(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keyClick(window, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    dialog = open_dialog(qtbot, ShortcutsDialog)
    rows = dict(dialog.visible_rows())
    native = QKeySequence.SequenceFormat.NativeText
    for action in window.findChildren(QAction):
        if action.shortcut().toString(native):
            assert any(action.shortcut().toString(native) in keys for keys in rows.values()), \
                action.text()
    assert rows["Keyboard Shortcuts"] == QKeySequence("Ctrl+/").toString(native)
    assert len(rows) >= 10
    dialog.filter_edit.setText("shortcuts")
    assert [name for name, _ in dialog.visible_rows()] == ["Keyboard Shortcuts"]
    dialog.filter_edit.setText("ctrl+/")
    assert [name for name, _ in dialog.visible_rows()] == ["Keyboard Shortcuts"]
    dialog.close()


def test_the_manual_shows_the_docs_pages_and_follows_their_links(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    folder = manual_folder()
    assert folder is not None and (folder / "chat.md").is_file()
    window = make_window(skills_root)
    _help(window, "&Manual").trigger()
    dialog = open_dialog(qtbot, ManualDialog)
    # The pages, and the README after them.
    assert dialog.pages.count() == len(list(folder.glob("*.md"))) + 1
    assert dialog.pages.currentItem().text() == "Browsing and authoring"
    dialog.view.anchorClicked.emit(QUrl("security.md"))
    assert Path(dialog.pages.currentItem().toolTip()).name == "security.md"
    assert "sandbox" in dialog.view.toPlainText().lower()
    dialog.close()

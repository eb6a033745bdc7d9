"""Help ▸ About names the version, the Qt version and the folders the studio keeps its files in."""

from __future__ import annotations

from pathlib import Path

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio import __version__
from studio.paths import cache_dir, config_dir, data_dir
from tests.ui.helpers import WindowFactory, open_dialog


def test_help_about_names_the_version_qt_and_the_folders(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    assert [a.text() for a in window.menuBar().actions()][-1] == "&Help"
    about = next(a for a in window.menus.help.actions() if a.text() == "&About Skill Studio")
    about.trigger()
    box = open_dialog(qtbot, QMessageBox)
    text = box.text()
    for expected in (__version__, qVersion(), PYSIDE_VERSION, str(config_dir()), str(data_dir()),
                     str(cache_dir())):
        assert expected in text, expected
    assert str(config_dir()) != str(data_dir()) != str(cache_dir())
    box.close()

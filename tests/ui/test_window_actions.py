"""The window's keyboard shortcuts, whole-library problems, standard locations, file tabs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from studio.ui.chat.dock import CHAT_MIN_WIDTH, EDITOR_MIN_WIDTH
from tests.ui.helpers import WindowFactory


@pytest.mark.parametrize(("action", "keys"), [
    ("new_action", "Ctrl+N"), ("add_root_action", "Ctrl+O"), ("save_action", "Ctrl+S"),
    ("close_tab_action", "Ctrl+W"), ("filter_action", "Ctrl+F"), ("fix_action", "Ctrl+."),
    ("rename_action", "F2"),
])
def test_the_keyboard_shortcuts(make_window: WindowFactory, action: str, keys: str) -> None:
    window = make_window()
    assert getattr(window, action).shortcut() == QKeySequence(keys)


def test_f2_opens_the_rename_dialog_for_the_open_skill(qtbot: QtBot, make_window: WindowFactory,
                                                       skills_root: Path) -> None:
    from studio.ui.library.skill_name import RenameSkillDialog
    from tests.ui.helpers import open_dialog

    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "pdf-tools")
    assert tab is not None
    window.activateWindow()
    tab.raw_editor.setFocus()
    qtbot.keyClick(tab.raw_editor, Qt.Key.Key_F2)
    dialog = open_dialog(qtbot, RenameSkillDialog)
    assert dialog.name_edit.text() == "pdf-tools"
    dialog.reject()


def test_problems_of_the_whole_library(qtbot: QtBot, make_window: WindowFactory,
                                       skills_root: Path) -> None:
    (skills_root / "Bad Name").mkdir()
    (skills_root / "Bad Name" / "SKILL.md").write_text(
        "---\nname: Bad Name\ndescription: Broken. Use when testing.\n---\nBody\n")
    window = make_window(skills_root)
    panel = window.problems_panel
    assert panel.model.rowCount() == 0
    window.validate_action.trigger()
    assert panel.library_scope
    assert not panel.table.isColumnHidden(panel.model.SKILL)
    problems = panel.model.problems()
    assert {p.skill_name for p in problems} == {"Bad Name", "csv-profiler"}
    assert "error" in panel.summary.text()
    bad = next(i for i, p in enumerate(problems) if p.diagnostic.code == "SK104")

    panel.table.doubleClicked.emit(panel.model.index(bad, 2))

    tab = window.editors.current_skill_tab()
    assert tab is not None and tab.directory == skills_root / "Bad Name"
    assert tab.form.name_edit.property("problem") == "error"


def test_a_standard_location_is_created_and_added(qtbot: QtBot, make_window: WindowFactory,
                                                  scratch_home: Path) -> None:
    window = make_window()
    window.locations_menu.aboutToShow.emit()
    labels = [action.text() for action in window.locations_menu.actions()]
    assert "~/.claude/skills (create it)" in labels
    assert {"~/.gemini/skills (create it)", "~/.copilot/skills (create it)",
            "~/.cursor/skills (create it)", "~/.config/goose/skills (create it)",
            "~/.config/opencode/skills (create it)"} <= set(labels)
    location = scratch_home / ".claude" / "skills"
    window.roots.add_location(location)
    qtbot.waitUntil(lambda: not window.loader.busy, timeout=10000)
    assert location.is_dir()
    assert window.library.root(location) is not None
    window.locations_menu.aboutToShow.emit()
    assert "~/.claude/skills (in the library)" in [a.text() for a in window.locations_menu.actions()]


def test_a_script_opens_in_a_plain_tab_and_saves(qtbot: QtBot, make_window: WindowFactory,
                                                 skills_root: Path) -> None:
    script = skills_root / "pdf-tools" / "scripts" / "extract.py"
    window = make_window(skills_root)
    tab = window.editors.open_file(script, 1)
    assert tab is not None and tab.path == script
    assert window.tabs.tabText(window.tabs.currentIndex()) == "extract.py"
    tab.set_text(tab.text() + "print('done')\n")
    assert tab.dirty
    window.save_action.trigger()
    assert script.read_text() == "#!/usr/bin/env python3\nprint('done')\n"
    assert script.stat().st_mode & 0o111, "saving must keep the script executable"
    assert not tab.dirty


def test_binary_files_are_not_opened_for_editing(qtbot: QtBot, make_window: WindowFactory,
                                                 skills_root: Path) -> None:
    image = skills_root / "pdf-tools" / "assets" / "logo.png"
    image.parent.mkdir()
    image.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    window = make_window(skills_root)
    tab = window.editors.open_file(image)
    assert tab is not None and tab.read_only
    assert "binary file" in tab.findChild(type(window.welcome), "banner").text()


def test_the_welcome_says_where_the_chat_is_and_opening_it_spares_the_editor(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    window.resize(800, 700)
    dock = window.chat.dock
    assert dock.isHidden(), "the offscreen screen is narrower than SCREEN_WIDTH_FOR_CHAT"
    assert "View ▸ Chat" in window.welcome.text()
    tab = window.editors.open_skill(skills_root / "pdf-tools")
    assert tab is not None
    window.chat.try_action.trigger()
    qtbot.waitUntil(lambda: dock.isVisible())
    assert "View ▸ Chat" not in window.welcome.text()
    # On a window this narrow there is no room for both: the chat floats beside the editor.
    qtbot.waitUntil(dock.isFloating, timeout=3000)
    qtbot.waitUntil(lambda: window.centralWidget().width() >= EDITOR_MIN_WIDTH, timeout=3000)
    assert dock.width() >= CHAT_MIN_WIDTH


def test_a_layout_saved_on_a_large_screen_comes_back_in_proportion(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    settings = tmp_path / "layout" / "settings.yaml"
    big = make_window(skills_root, settings=settings)
    big.resize(1600, 1000)
    big.resizeDocks([big.problems_dock], [760], Qt.Orientation.Vertical)
    big.resizeDocks([big.library_dock], [330], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: big.problems_dock.height() > 600)
    big.remember_session()
    assert "problemsDock=" in big.settings.window.docks
    big.close_without_asking()

    window = make_window(skills_root, settings=settings)
    screen = window.screen().availableGeometry()
    # (The offscreen screen is 800 px wide, less than the window's least width.)
    assert window.height() <= screen.height()

    def in_bounds() -> bool:
        height = window.height()
        return (120 <= window.problems_dock.height() <= 0.4 * height + 1
                and window.library_dock.width() >= 200)

    qtbot.waitUntil(in_bounds, timeout=3000)
    assert window.library_dock.width() <= 0.4 * window.width() + 1
    # The editor keeps most of the height: Problems had 76% of it, it gets its most, 40%.
    assert window.problems_dock.height() >= 0.3 * window.height()

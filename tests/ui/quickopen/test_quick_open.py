"""Quick Open (Ctrl+P) and the command palette (Ctrl+Shift+P) in the window, driven by the
keyboard alone."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from studio.skills.library import Library
from studio.skills.scan import SkillRoot
from studio.ui.mainwindow import MainWindow
from studio.ui.shortcuts import window_shortcuts
from tests.ui.helpers import WindowFactory, write_skill


def shown(window: MainWindow) -> list[str]:
    return [entry.name for entry in window.quick_open.popup.results.entries]


def test_ctrl_p_opens_a_skill_of_any_root_by_its_letters(qtbot: QtBot, make_window: WindowFactory,
                                                         skills_root: Path, tmp_path: Path) -> None:
    other = tmp_path / "collection"
    write_skill(other / "acme--tools" / "skills", "slide-maker")
    window = make_window(skills_root, other)
    window.activateWindow()
    popup = window.quick_open.popup
    qtbot.keySequence(window, "Ctrl+P")
    qtbot.waitUntil(popup.isVisible)
    assert QApplication.focusWidget() is popup.line
    qtbot.keyClicks(popup.line, "sldmk")
    qtbot.waitUntil(lambda: shown(window) == ["slide-maker"])
    assert popup.results.entries[0].hint == "collection/acme--tools/skills"
    qtbot.keyClick(popup.line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not popup.isVisible())
    tab = window.editors.skill_tab(other / "acme--tools" / "skills" / "slide-maker")
    assert tab is not None and window.tabs.currentWidget() is tab


def test_arrows_move_and_escape_gives_the_focus_back(qtbot: QtBot, make_window: WindowFactory,
                                                     skills_root: Path) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    window.library_panel.tree.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.library_panel.tree)
    popup = window.quick_open.popup
    window.quick_open.go_to_action.trigger()
    qtbot.waitUntil(lambda: shown(window) == ["csv-profiler", "pdf-tools", "web-search"])
    qtbot.keyClick(popup.line, Qt.Key.Key_Down)
    qtbot.keyClick(popup.line, Qt.Key.Key_Down)
    assert popup.list.currentIndex().row() == 2
    qtbot.keyClick(popup.line, Qt.Key.Key_Up)
    assert popup.list.currentIndex().row() == 1
    assert QApplication.focusWidget() is popup.line
    qtbot.keyClick(popup.line, Qt.Key.Key_Escape)
    assert not popup.isVisible()
    assert QApplication.focusWidget() is window.library_panel.tree
    assert window.editors.skill_tab(skills_root / "pdf-tools") is None


def test_the_palette_runs_a_menu_action_by_name(qtbot: QtBot, make_window: WindowFactory,
                                                skills_root: Path) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    popup = window.quick_open.popup
    qtbot.keySequence(window, "Ctrl+Shift+P")
    qtbot.waitUntil(popup.isVisible)
    assert popup.line.text() == ">"
    qtbot.waitUntil(lambda: len(shown(window)) > 20)
    entries = {entry.name: entry for entry in popup.results.entries}
    assert "Add Folder of Skills…" in entries and "&" not in "".join(entries)
    assert entries["Filter Library"].keys == "Ctrl+F"
    assert entries["Filter Library"].hint == "Edit"
    assert "Command Palette…" not in entries
    qtbot.keyClicks(popup.line, "filt lib")
    qtbot.waitUntil(lambda: shown(window)[:1] == ["Filter Library"])
    qtbot.keyClick(popup.line, Qt.Key.Key_Enter)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.library_panel.filter_edit)
    assert not popup.isVisible()


def test_deleting_the_prompt_turns_the_palette_into_quick_open(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    popup = window.quick_open.popup
    window.quick_open.palette_action.trigger()
    qtbot.waitUntil(lambda: len(shown(window)) > 20)
    qtbot.keyClick(popup.line, Qt.Key.Key_Backspace)
    qtbot.waitUntil(lambda: shown(window) == ["csv-profiler", "pdf-tools", "web-search"])


def test_help_lists_both_shortcuts(make_window: WindowFactory) -> None:
    listed = dict(window_shortcuts(make_window()))
    assert listed["Go to Skill"] == "Ctrl+P"
    assert listed["Command Palette"] == "Ctrl+Shift+P"


def test_quick_open_follows_roots_added_and_removed(qtbot: QtBot, make_window: WindowFactory,
                                                     skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    window.activateWindow()
    popup = window.quick_open.popup
    window.quick_open.go_to_action.trigger()
    qtbot.waitUntil(lambda: len(shown(window)) == 3)
    qtbot.keyClick(popup.line, Qt.Key.Key_Escape)
    more = tmp_path / "more"
    write_skill(more, "zeta-skill")
    window.roots.add_root(more)
    qtbot.waitUntil(lambda: not window.loader.busy and window.library.skill_count == 4)
    window.quick_open.go_to_action.trigger()
    qtbot.keyClicks(popup.line, "zeta")
    qtbot.waitUntil(lambda: shown(window) == ["zeta-skill"])


def test_ten_thousand_skills_are_searched_per_keystroke_quickly(qtbot: QtBot,
                                                                 make_window: WindowFactory,
                                                                 tmp_path: Path) -> None:
    """Measured, not asserted against the clock: the work a keystroke does is one search over
    the matches, never a rebuild of the entries (those are read once per opening)."""
    window = make_window()
    library: Library = window.library
    root = tmp_path / "big"
    library.add_root(SkillRoot(root))
    folders = [root / f"o{number % 300}--r" / f"s{number}" for number in range(10_000)]
    library.add_skills(root, [SkillSummary(root, folder, folder / "SKILL.md",
                                           f"skill-{number:05d}", "", True, True, ())
                              for number, folder in enumerate(folders)])
    window.activateWindow()
    popup = window.quick_open.popup
    window.quick_open.go_to_action.trigger()
    qtbot.waitUntil(lambda: len(shown(window)) == 200)
    built = window.quick_open._skills
    started = time.perf_counter()
    qtbot.keyClicks(popup.line, "skill-0999")
    qtbot.waitUntil(lambda: shown(window)[:1] == ["skill-09990"])
    print(f"typing 10 letters over 10,000 skills: {time.perf_counter() - started:.3f} s")
    assert window.quick_open._skills is built
    assert shown(window)[:10] == [f"skill-0999{digit}" for digit in range(10)]


def test_the_box_stays_centred_in_the_window_as_it_is_resized(qtbot: QtBot,
                                                              make_window: WindowFactory) -> None:
    window = make_window()
    window.activateWindow()
    popup = window.quick_open.popup
    window.quick_open.go_to_action.trigger()
    qtbot.waitUntil(popup.isVisible)
    qtbot.waitUntil(lambda: "add a folder of skills" in popup.count.text())
    window.resize(900, 600)
    qtbot.waitUntil(lambda: abs(popup.geometry().center().x() - window.width() // 2) <= 1)
    assert popup.width() <= window.width() - 40

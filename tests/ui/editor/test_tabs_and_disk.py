"""Closing dirty tabs asks first; changes by other programs are noticed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from tests.ui.helpers import WindowFactory, click, open_dialog, start

Button = QMessageBox.StandardButton


def test_a_dirty_tab_asks_before_closing(qtbot: QtBot, make_window: WindowFactory,
                                         skills_root: Path) -> None:
    window = make_window(skills_root)
    skill_file = skills_root / "web-search" / "SKILL.md"
    before = skill_file.read_text(encoding="utf-8")
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    tab.set_field("license", "MIT")

    window.close_tab_action.trigger()
    box = open_dialog(qtbot, QMessageBox)
    assert "web-search has unsaved changes" in box.text()
    click(box, Button.Cancel)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert window.tabs.indexOf(tab) >= 0

    window.close_tab_action.trigger()
    click(open_dialog(qtbot, QMessageBox), Button.Discard)
    qtbot.waitUntil(lambda: window.tabs.count() == 0)
    assert skill_file.read_text(encoding="utf-8") == before
    assert window.centre.currentWidget() is window.welcome


def test_save_when_closing_writes_the_file(qtbot: QtBot, make_window: WindowFactory,
                                           skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    task = start(window.editors.close_tab(tab))
    click(open_dialog(qtbot, QMessageBox), Button.Save)
    qtbot.waitUntil(task.done)
    assert task.result() is True
    assert "license: MIT\n" in (skills_root / "web-search" / "SKILL.md").read_text()


def test_closing_the_window_asks_about_every_dirty_tab(qtbot: QtBot, make_window: WindowFactory,
                                                      skills_root: Path) -> None:
    window = make_window(skills_root)
    closed: list[bool] = []
    window.closed.connect(lambda: closed.append(True))
    for name in ("web-search", "pdf-tools"):
        tab = window.editors.open_skill(skills_root / name)
        assert tab is not None
        tab.set_field("license", "MIT")

    window.close()
    box = open_dialog(qtbot, QMessageBox)
    assert "2 files have unsaved changes" in box.text()
    click(box, Button.Cancel)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert window.isVisible() and not closed

    window.close()
    click(open_dialog(qtbot, QMessageBox), Button.Discard)
    qtbot.waitUntil(lambda: bool(closed))
    assert not window.isVisible()


def test_an_external_change_reloads_a_clean_tab(qtbot: QtBot, make_window: WindowFactory,
                                                skills_root: Path) -> None:
    window = make_window(skills_root)
    skill_file = skills_root / "web-search" / "SKILL.md"
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    changed = skill_file.read_text(encoding="utf-8").replace("Steps.", "Changed elsewhere.")
    skill_file.write_text(changed, encoding="utf-8")

    qtbot.waitUntil(lambda: tab.doc.text() == changed, timeout=5000)
    assert tab.body_editor.toPlainText().endswith("Changed elsewhere.\n")
    assert not tab.dirty

    again = changed.replace("Changed elsewhere.", "And again.")
    skill_file.write_text(again, encoding="utf-8")
    qtbot.waitUntil(lambda: tab.doc.text() == again, timeout=5000)


def test_our_own_save_is_not_taken_for_an_external_change(qtbot: QtBot,
                                                          make_window: WindowFactory,
                                                          skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    assert window.editors.save(tab)
    tab.set_field("license", "Apache-2.0")

    def asking() -> bool:
        return any(w.isVisible() for w in window.findChildren(QMessageBox))

    # What the watcher does when it sees the write; whether the kernel's event for our own atomic
    # save reaches it before it re-arms is a race, so the test runs the check itself.
    check = start(window.disk_changes.file_changed_on_disk(tab.path))
    qtbot.waitUntil(lambda: check.done() or asking())
    assert not asking()
    assert "license: Apache-2.0" in tab.doc.text()


def test_an_external_change_to_a_dirty_tab_asks(qtbot: QtBot, make_window: WindowFactory,
                                                skills_root: Path) -> None:
    window = make_window(skills_root)
    skill_file = skills_root / "web-search" / "SKILL.md"
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    tab.set_field("license", "MIT")
    changed = skill_file.read_text(encoding="utf-8").replace("Steps.", "Changed elsewhere.")
    skill_file.write_text(changed, encoding="utf-8")

    box = open_dialog(qtbot, QMessageBox, timeout=5000)
    assert "changed by another program" in box.text()
    click(box, Button.No)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert "license: MIT" in tab.doc.text() and tab.dirty

    newer = changed.replace("Changed elsewhere.", "Changed twice.")
    skill_file.write_text(newer, encoding="utf-8")
    click(open_dialog(qtbot, QMessageBox, timeout=5000), Button.Yes)
    qtbot.waitUntil(lambda: tab.doc.text() == newer)
    assert not tab.dirty


def test_a_tab_closed_while_its_disk_change_is_asked_about_is_left_alone(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    skill_file = skills_root / "web-search" / "SKILL.md"
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    tab.set_field("license", "MIT")
    skill_file.write_text(skill_file.read_text(encoding="utf-8") + "Changed elsewhere.\n",
                          encoding="utf-8")
    check = start(window.disk_changes.file_changed_on_disk(tab.path))
    box = open_dialog(qtbot, QMessageBox, timeout=5000)
    # The folder went (or the window closed the tab) while the question was open.
    window.editors.remove_tab(tab)
    click(box, Button.Yes)
    qtbot.waitUntil(check.done)
    assert check.exception() is None
    assert window.editors.tab_for_path(skill_file) is None

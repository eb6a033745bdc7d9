"""Nothing typed is lost: unsaved edits are kept shortly after the typing stops, offered back after
a crash (each as an unsaved tab, saying how its file is now), and never one process's for another."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.editor.file_tab import FileTab
from studio.ui.editor.recovery_dialog import RecoveryDialog
from studio.ui.mainwindow import MainWindow
from tests.ui.helpers import WindowFactory, click, open_dialog, start

Button = QMessageBox.StandardButton


def _records(root: Path) -> list[Path]:
    return sorted(root.glob("*/*.json")) if root.is_dir() else []


def _crash(window: MainWindow) -> None:
    """What is left when the process dies: the copies written, and no lock held any more."""
    assert window.autosaver.flush()
    window.autosaver.stop()


def _restore(qtbot: QtBot, window: MainWindow, button: str = "restore") -> int:
    task = start(window.recovery.restore_autosaves())
    dialog = open_dialog(qtbot, RecoveryDialog)
    getattr(dialog, f"{button}_button").click()
    qtbot.waitUntil(task.done)
    return task.result()


def test_edits_are_kept_once_typing_stops_and_go_when_saved(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert isinstance(tab, SkillEditorTab)
    tab.set_field("license", "MIT")
    tab.set_field("license", "MIT-0")
    # Debounced: nothing is written on the edit itself.
    assert _records(root) == []
    qtbot.waitUntil(lambda: len(_records(root)) == 1)
    assert "MIT-0" in _records(root)[0].read_text(encoding="utf-8")
    tab.set_field("license", "Apache-2.0")
    qtbot.waitUntil(lambda: "Apache-2.0" in _records(root)[0].read_text(encoding="utf-8"))

    assert window.editors.save(tab)
    qtbot.waitUntil(lambda: _records(root) == [])


def test_unsaved_edits_survive_a_crash(qtbot: QtBot, make_window: WindowFactory,
                                       skills_root: Path, tmp_path: Path) -> None:
    first = make_window(skills_root)
    tab = first.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "Typed before the crash")
    edited = tab.doc.text()
    _crash(first)

    second = make_window(skills_root)
    task = start(second.recovery.restore_autosaves())
    dialog = open_dialog(qtbot, RecoveryDialog)
    assert dialog.list.count() == 1
    assert "web-search/SKILL.md" in dialog.list.item(0).text()
    assert "+license: Typed before the crash" in dialog.compare.toPlainText()
    dialog.restore_button.click()
    qtbot.waitUntil(task.done)
    assert task.result() == 1
    restored = second.editors.current_skill_tab()
    assert restored is not None
    assert restored.doc.text() == edited and restored.dirty
    assert "Restored unsaved changes" in restored.banner.text()
    assert "changed on disk" not in restored.banner.text()

    assert second.editors.save(restored)
    second.autosaver.flush()
    assert _records(tmp_path / "recovery") == []


def test_a_file_changed_on_disk_since_is_said_so(qtbot: QtBot, make_window: WindowFactory,
                                                 skills_root: Path) -> None:
    first = make_window(skills_root)
    tab = first.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    _crash(first)
    skill_file = skills_root / "web-search" / "SKILL.md"
    skill_file.write_text(skill_file.read_text(encoding="utf-8") + "Added elsewhere.\n",
                          encoding="utf-8")

    second = make_window(skills_root)
    task = start(second.recovery.restore_autosaves())
    dialog = open_dialog(qtbot, RecoveryDialog)
    assert "changed on disk since" in dialog.list.item(0).text()
    assert "-Added elsewhere." in dialog.compare.toPlainText()
    dialog.restore_button.click()
    qtbot.waitUntil(task.done)
    restored = second.editors.current_skill_tab()
    assert restored is not None
    assert "was changed on disk since" in restored.banner.text()
    assert "Added elsewhere." not in restored.doc.text() and restored.dirty


def test_a_draft_and_a_skill_whose_folder_went_come_back_as_drafts(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    first = make_window(skills_root)
    draft = first.editors.open_draft("chat-notes", "---\nname: chat-notes\ndescription: Notes "
                                     "from a chat. Use when asked.\n---\n# Notes\n")
    draft.set_field("license", "MIT")
    first.editors.open_draft("untouched", "---\nname: untouched\n---\n")
    gone = first.editors.open_skill(skills_root / "pdf-tools")
    assert gone is not None
    gone.set_field("license", "Apache-2.0")
    _crash(first)
    for file in sorted((skills_root / "pdf-tools").rglob("*"), reverse=True):
        file.rmdir() if file.is_dir() else file.unlink()
    (skills_root / "pdf-tools").rmdir()

    second = make_window(skills_root)
    assert _restore(qtbot, second) == 3
    tabs = {tab.doc.skill.name: tab for tab in second.editors.editor_tabs()
            if isinstance(tab, SkillEditorTab)}
    assert set(tabs) == {"chat-notes", "pdf-tools", "untouched"}
    for tab in tabs.values():
        assert tab.doc.untitled and tab.dirty
    assert "license: MIT\n" in tabs["chat-notes"].doc.text()
    assert "license: Apache-2.0\n" in tabs["pdf-tools"].doc.text()
    assert "is gone or read-only now" in tabs["pdf-tools"].banner.text()


def test_a_plain_file_tab_is_kept_too(qtbot: QtBot, make_window: WindowFactory,
                                      skills_root: Path) -> None:
    first = make_window(skills_root)
    api = skills_root / "pdf-tools" / "references" / "api.md"
    tab = first.editors.open_file(api)
    assert isinstance(tab, FileTab)
    tab.set_text("# API\n\nUnsaved.\n")
    _crash(first)

    second = make_window(skills_root)
    assert _restore(qtbot, second) == 1
    restored = second.editors.tab_for_path(api)
    assert isinstance(restored, FileTab)
    assert restored.text() == "# API\n\nUnsaved.\n" and restored.dirty


def test_discard_all_deletes_and_later_keeps(qtbot: QtBot, make_window: WindowFactory,
                                             skills_root: Path, tmp_path: Path) -> None:
    root = tmp_path / "recovery"
    first = make_window(skills_root)
    tab = first.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    _crash(first)

    second = make_window(skills_root)
    assert _restore(qtbot, second, "later") == 0
    assert len(_records(root)) == 1 and second.tabs.count() == 0
    assert _restore(qtbot, second, "discard") == 0
    assert _records(root) == []
    # The edits go; the tab that was open comes back as the file on disk has it.
    [reopened] = second.editors.editor_tabs()
    assert reopened.path.parent.name == "web-search" and not reopened.dirty


def test_unticked_ones_are_deleted(qtbot: QtBot, make_window: WindowFactory,
                                   skills_root: Path, tmp_path: Path) -> None:
    first = make_window(skills_root)
    for name in ("web-search", "csv-profiler"):
        tab = first.editors.open_skill(skills_root / name)
        assert tab is not None
        tab.set_field("license", "MIT")
    _crash(first)
    second = make_window(skills_root)
    task = start(second.recovery.restore_autosaves())
    dialog = open_dialog(qtbot, RecoveryDialog)
    dialog.list.item(0).setCheckState(dialog.list.item(0).checkState().Unchecked)
    dialog.restore_button.click()
    qtbot.waitUntil(task.done)
    # Both tabs were open: both come back, the unticked one without its edits.
    assert task.result() == 1 and [t.dirty for t in second.editors.editor_tabs()] == [False, True]
    second.autosaver.flush()
    [kept] = _records(tmp_path / "recovery")
    assert second.autosaver.store.session.folder == kept.parent


def test_a_running_windows_copies_are_not_offered_to_another(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    first = make_window(skills_root)
    tab = first.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    assert first.autosaver.flush()

    second = make_window(skills_root)
    task = start(second.recovery.restore_autosaves())
    qtbot.waitUntil(task.done)
    assert task.result() == 0
    assert len(_records(tmp_path / "recovery")) == 1


def test_a_corrupt_copy_is_skipped_with_a_message(qtbot: QtBot, make_window: WindowFactory,
                                                  skills_root: Path, tmp_path: Path) -> None:
    session = tmp_path / "recovery" / "123-dead"
    session.mkdir(parents=True)
    (session / "skill-0.json").write_text('{"format": 1, "text": ', encoding="utf-8")
    window = make_window(skills_root)
    task = start(window.recovery.restore_autosaves())
    qtbot.waitUntil(task.done)
    assert task.result() == 0
    box = open_dialog(qtbot, QMessageBox)
    assert "could not be read" in box.text() and "unreadable" in box.text()
    click(box, Button.Ok)


def test_a_data_folder_that_cannot_be_written_is_said_once(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    (tmp_path / "recovery").write_text("not a folder", encoding="utf-8")
    window = make_window(skills_root)
    failures: list[str] = []
    window.autosaver.write_failed.connect(failures.append)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    assert not window.autosaver.flush()
    qtbot.waitUntil(lambda: len(failures) == 1)
    tab.set_field("license", "MIT-0")
    assert not window.autosaver.flush()
    qtbot.waitUntil(lambda: "cannot be kept for recovery" in window.statusBar().currentMessage())
    assert len(failures) == 1 and "a crash now would lose them" in failures[0]
    assert tab.dirty and "MIT-0" in tab.doc.text()


def test_a_new_draft_is_kept_before_any_edit(qtbot: QtBot, make_window: WindowFactory,
                                             skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    window.editors.open_draft("from-chat", "---\nname: from-chat\n---\n# Drafted\n")
    qtbot.waitUntil(lambda: len(_records(tmp_path / "recovery")) == 1)
    assert "# Drafted" in _records(tmp_path / "recovery")[0].read_text(encoding="utf-8")


def test_eval_edits_that_could_not_be_saved_are_kept_and_come_back(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    skill = skills_root / "web-search"
    (skill / "evals").write_text("a file where the evals folder goes", encoding="utf-8")
    first = make_window(skills_root)
    tab = first.editors.open_skill(skill)
    assert tab is not None
    panel = first.evals.panel_for(tab)
    assert panel is not None
    panel.files.add_eval("Typed while the folder was blocked")
    qtbot.waitUntil(lambda: len(_records(tmp_path / "recovery")) == 1)
    assert not tab.dirty
    _crash(first)
    (skill / "evals").unlink()

    second = make_window(skills_root)
    assert _restore(qtbot, second) == 1
    restored = second.editors.tab_for_path(skill / "evals" / "evals.json")
    assert isinstance(restored, FileTab) and restored.dirty
    assert "Typed while the folder was blocked" in restored.text()
    assert second.editors.save(restored)
    assert "Typed while the folder was blocked" in (skill / "evals" / "evals.json").read_text()


def test_eval_edits_saved_at_once_leave_no_copy(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    panel = window.evals.panel_for(tab)
    assert panel is not None
    panel.files.add_eval("Saved at once")
    assert window.autosaver.flush()
    assert _records(tmp_path / "recovery") == []


def _open_tab_titles(window: MainWindow) -> list[str]:
    return [str(tab.path) for tab in window.editors.editor_tabs()]


def test_recovery_reopens_every_tab_that_was_open_in_its_order(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    """Issue 44: after a crash, the tabs without unsaved edits come back too, not only the one
    with them; the list in Settings is the last clean close's, so it cannot tell."""
    first = make_window(skills_root)
    first.editors.open_skill(skills_root / "pdf-tools")
    first.editors.open_file(skills_root / "pdf-tools" / "references" / "api.md")
    edited = first.editors.open_skill(skills_root / "web-search")
    first.editors.open_skill(skills_root / "csv-profiler")
    assert edited is not None
    edited.set_field("license", "Typed before the crash")
    was_open = _open_tab_titles(first)
    assert len(was_open) == 4
    _crash(first)

    second = make_window(skills_root)
    assert second.settings.open_tabs == []
    assert _restore(qtbot, second) == 1
    assert _open_tab_titles(second) == was_open
    restored = second.editors.skill_tab(skills_root / "web-search")
    assert restored is not None and restored.dirty


def test_tabs_come_back_after_a_crash_even_when_every_edit_was_saved(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    first = make_window(skills_root)
    first.editors.open_skill(skills_root / "pdf-tools")
    edited = first.editors.open_skill(skills_root / "web-search")
    assert edited is not None
    edited.set_field("license", "MIT")
    assert first.autosaver.flush()
    assert first.editors.save(edited)
    first.editors.open_skill(skills_root / "csv-profiler")
    was_open = _open_tab_titles(first)
    # A crash leaves the session's folder as it is (a clean stop deletes it): a copy of it is
    # what a dead process leaves.
    assert first.autosaver.flush()
    folder = first.autosaver.store.session.folder
    assert folder is not None
    shutil.copytree(folder, folder.with_name("1-dead"))
    first.autosaver.stop()
    assert _records(tmp_path / "recovery") == []

    second = make_window(skills_root)
    assert start(second.recovery.restore_autosaves()) is not None
    qtbot.waitUntil(lambda: _open_tab_titles(second) == was_open)
    assert not (tmp_path / "recovery").exists() or list((tmp_path / "recovery").iterdir()) == []


def test_a_clean_close_leaves_no_list_of_tabs_behind(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path, tmp_path: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.set_field("license", "MIT")
    assert window.autosaver.flush()
    assert window.editors.save(tab)
    window.autosaver.flush()
    window.autosaver.stop()
    recovery = tmp_path / "recovery"
    assert not recovery.exists() or list(recovery.iterdir()) == []

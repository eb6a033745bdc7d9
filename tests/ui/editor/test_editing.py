"""Authoring in the editor tab: live name check, fixes, save, undo across form and text."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from tests.ui.helpers import WindowFactory


def _type_name(qtbot: QtBot, tab: object, text: str) -> None:
    edit = tab.form.name_edit  # type: ignore[attr-defined]
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)


def test_typing_an_invalid_name_shows_the_problem(qtbot: QtBot, make_window: WindowFactory,
                                                  skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "pdf-tools")
    assert tab is not None
    _type_name(qtbot, tab, "PDF-tools")

    assert tab.form.name_message.isVisible()
    assert tab.form.name_message.text() == "Uppercase letters: use `pdf-tools`."
    assert "name: PDF-tools\n" in tab.doc.text()
    qtbot.waitUntil(lambda: any(p.diagnostic.code == "SK104"
                                for p in window.problems_panel.model.problems()))
    assert tab.form.name_edit.property("problem") == "error"
    assert "uppercase letters" in tab.form.name_edit.toolTip()
    assert tab.dirty
    assert window.tabs.tabText(window.tabs.indexOf(tab)).endswith("●")


def test_the_fix_button_fixes_it(qtbot: QtBot, make_window: WindowFactory,
                                 skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "pdf-tools")
    assert tab is not None
    _type_name(qtbot, tab, "PDF-tools")
    panel = window.problems_panel
    qtbot.waitUntil(lambda: panel.fix_button.isEnabled())
    row = next(i for i, p in enumerate(panel.model.problems()) if p.diagnostic.code == "SK104")
    panel.select_row(row)
    assert panel.fix_button.text() == "Fix: Rename to `pdf-tools`"

    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: tab.form.name_edit.text() == "pdf-tools")
    assert "name: pdf-tools\n" in tab.doc.text()
    assert not tab.dirty
    assert [p.diagnostic.code for p in panel.model.problems()] == []
    assert not tab.form.name_message.isVisible()


def test_ctrl_period_applies_the_fix(qtbot: QtBot, make_window: WindowFactory,
                                     skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "pdf-tools")
    assert tab is not None
    tab.set_field("allowed-tools", "Read")
    tab.doc.set_text(tab.doc.text().replace("allowed-tools: Read", "allowed-tools: [Read, Bash]"))
    tab.doc.validate_now()
    assert any(d.code == "SK206" for d in tab.diagnostics)
    window.activateWindow()
    tab.raw_editor.setFocus()

    qtbot.keyClick(tab.raw_editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)

    qtbot.waitUntil(lambda: "allowed-tools: Read Bash\n" in tab.doc.text())
    assert not any(d.code == "SK206" for d in tab.diagnostics)


def test_ctrl_s_writes_the_file_atomically(qtbot: QtBot, make_window: WindowFactory,
                                          skills_root: Path) -> None:
    window = make_window(skills_root)
    skill_file = skills_root / "web-search" / "SKILL.md"
    inode = os.stat(skill_file).st_ino
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    window.activateWindow()
    tab.views.setCurrentWidget(tab.body_editor)
    tab.body_editor.setFocus()
    tab.body_editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(tab.body_editor, "More steps.")
    assert tab.dirty

    qtbot.keyClick(tab.body_editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)

    assert skill_file.read_text(encoding="utf-8").endswith("Steps.\nMore steps.")
    assert os.stat(skill_file).st_ino != inode, "saved in place instead of replaced atomically"
    assert sorted(p.name for p in skill_file.parent.iterdir()) == ["SKILL.md"]
    assert not tab.dirty
    assert not window.tabs.tabText(window.tabs.indexOf(tab)).endswith("●")


def test_crlf_files_keep_their_line_ends(qtbot: QtBot, make_window: WindowFactory,
                                         skills_root: Path) -> None:
    skill_file = skills_root / "web-search" / "SKILL.md"
    skill_file.write_bytes(skill_file.read_bytes().replace(b"\n", b"\r\n"))
    window = make_window(skills_root)
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    tab.set_field("license", "MIT")
    assert window.editors.save(tab)
    data = skill_file.read_bytes()
    assert b"license: MIT\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_undo_and_redo_work_across_form_and_text(qtbot: QtBot, make_window: WindowFactory,
                                                 skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    original = tab.doc.text()
    window.activateWindow()
    qtbot.keyClicks(tab.form.license_edit, "MIT")
    tab.views.setCurrentWidget(tab.body_editor)
    tab.body_editor.setFocus()
    tab.body_editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(tab.body_editor, "Extra.")
    edited = tab.doc.text()
    assert "license: MIT\n" in edited and edited.endswith("Extra.")

    while tab.doc.document.isUndoAvailable() and tab.doc.text().endswith("Extra."):
        qtbot.keyClick(tab.body_editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not tab.doc.text().endswith("Extra.")
    assert tab.body_editor.toPlainText().endswith("Steps.\n")
    assert "license: MIT\n" in tab.doc.text()

    tab.form.license_edit.setFocus()
    while tab.doc.document.isUndoAvailable():
        qtbot.keyClick(tab.form.license_edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert tab.doc.text() == original
    assert tab.form.license_edit.text() == ""
    assert not tab.dirty

    redo = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    while tab.doc.document.isRedoAvailable():
        qtbot.keyClick(tab.form.license_edit, Qt.Key.Key_Z, redo)
    assert tab.doc.text() == edited
    assert tab.form.license_edit.text() == "MIT"


def test_raw_edits_refresh_the_form_and_body(qtbot: QtBot, make_window: WindowFactory,
                                             skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    tab.views.setCurrentWidget(tab.raw_editor)
    cursor = tab.raw_editor.document().find("description: ")
    cursor.clearSelection()
    tab.raw_editor.setTextCursor(cursor)
    tab.raw_editor.setFocus()
    qtbot.keyClicks(tab.raw_editor, "Fast ")
    assert tab.form.description_edit.toPlainText().startswith("Fast Handles web-search")
    assert tab.form.description_counter.text() == f"{len(tab.doc.skill.description or '')} / 1024"
    tab.doc.set_text(tab.doc.text() + "Last line.\n")
    assert tab.body_editor.toPlainText().endswith("Last line.\n")
    assert tab.body_editor.first_line == tab.doc.skill.body_span.line


def test_metadata_table_writes_the_mapping(qtbot: QtBot, make_window: WindowFactory,
                                           skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    model = tab.form.metadata_model
    index = model.add_row()
    model.setData(index, "version")
    model.setData(index.siblingAtColumn(1), "1.0")
    assert "metadata:\n  version: '1.0'\n---" in tab.doc.text()
    assert tab.doc.skill.metadata == {"version": "1.0"}
    model.remove_row(0)
    assert "metadata" not in tab.doc.text()


def test_problem_double_click_goes_to_the_place(qtbot: QtBot, make_window: WindowFactory,
                                                skills_root: Path) -> None:
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "csv-profiler")
    assert tab is not None
    panel = window.problems_panel
    row = next(i for i, p in enumerate(panel.model.problems()) if p.diagnostic.code == "SK209")
    problem = panel.model.problems()[row]

    panel.table.doubleClicked.emit(panel.model.index(row, 2))

    assert tab.views.currentWidget() is tab.raw_editor
    assert tab.raw_editor.current_line() == problem.diagnostic.line
    assert tab.form.description_edit.property("problem") == "warning" or (
        tab.form.description_edit.property("problem") == "error")
    assert "SK209" in tab.form.description_edit.toolTip()


def test_a_file_problem_opens_the_file(qtbot: QtBot, make_window: WindowFactory,
                                       skills_root: Path) -> None:
    (skills_root / "web-search" / "scripts").mkdir()
    (skills_root / "web-search" / "scripts" / "run.py").write_text("print(1)\n")
    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    problem = next(p for p in window.problems_panel.model.problems()
                   if p.diagnostic.file == "scripts/run.py")
    window.editors.go_to_problem(problem)
    current = window.editors.current_tab()
    assert current is not None and current.path == skills_root / "web-search/scripts/run.py"
    assert current.text() == "print(1)\n"


def test_a_dark_palette_is_followed(qtbot: QtBot, make_window: WindowFactory,
                                    skills_root: Path) -> None:
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from studio.ui.theme import is_dark

    window = make_window(skills_root)
    tab = window.editors.open_skill(skills_root / "web-search")
    assert tab is not None
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    light = app.palette()
    assert not is_dark()
    dark = QPalette(light)
    dark.setColor(QPalette.ColorRole.Window, QColor("#202225"))
    dark.setColor(QPalette.ColorRole.Base, QColor("#17181a"))
    dark.setColor(QPalette.ColorRole.Text, QColor("#e6e6e6"))
    try:
        app.setPalette(dark)
        qtbot.waitUntil(lambda: tab._raw_highlighter._heading.foreground().color().name()
                        == "#6cb6ff")
        tab.views.setCurrentWidget(tab.preview)
        assert "#e6edf3" in tab.preview.document().defaultStyleSheet()
    finally:
        app.setPalette(light)


def test_a_file_that_is_not_utf8_opens_read_only(qtbot: QtBot, make_window: WindowFactory,
                                                 skills_root: Path) -> None:
    skill_file = skills_root / "web-search" / "SKILL.md"
    skill_file.write_bytes(b"---\nname: web-search\ndescription: caf\xe9\n---\n")
    window = make_window(skills_root)
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    assert tab.doc.read_only and tab.raw_editor.isReadOnly()
    assert "not valid UTF-8" in tab.banner.text()
    assert not window.editors.save(tab)
    assert skill_file.read_bytes().endswith(b"caf\xe9\n---\n")


def test_an_unclosed_frontmatter_turns_the_form_and_body_off(qtbot: QtBot,
                                                              make_window: WindowFactory,
                                                              skills_root: Path) -> None:
    skill_file = skills_root / "web-search" / "SKILL.md"
    skill_file.write_text("---\nname: web-search\ndescription: x\n# Body\n", encoding="utf-8")
    window = make_window(skills_root)
    tab = window.editors.open_skill(skill_file.parent)
    assert tab is not None
    assert tab.form.notice.isVisibleTo(tab.form)
    assert tab.form.name_edit.isReadOnly()
    assert tab.body_editor.isReadOnly()
    assert any(d.code == "SK011" for d in tab.diagnostics)
    tab.doc.set_text("---\nname: web-search\ndescription: x\n---\n# Body\n")
    assert not tab.form.notice.isVisibleTo(tab.form)
    assert not tab.form.name_edit.isReadOnly() and not tab.body_editor.isReadOnly()
    assert tab.body_editor.toPlainText() == "# Body\n"

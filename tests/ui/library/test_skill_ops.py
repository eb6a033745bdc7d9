"""Whole-skill operations that write files: renaming a skill no tab holds, and the editor's Fix,
both through the core's fix checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import Problem
from studio.skills.model import Diagnostic, Fix, Severity, TextEdit
from tests.ui.helpers import WindowFactory, open_dialog, run, write_skill


@pytest.mark.parametrize("size", [1_048_567, 1_048_587, 3 * 1024 * 1024])
def test_renaming_a_large_skill_from_the_library_keeps_every_byte(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, size: int) -> None:
    root = tmp_path / "skills"
    directory = write_skill(root, "big-skill")
    skill_file = directory / "SKILL.md"
    head = skill_file.read_bytes()
    line = b"Long reference material, kept in the body on purpose.\n"
    body = (line * (size // len(line) + 1))[: size - len(head) - len(b"THE END\n")] + b"THE END\n"
    skill_file.write_bytes(head + body)
    assert skill_file.stat().st_size == size
    window = make_window(root)

    assert window.skill_ops.rename_to(directory, "huge-skill")

    renamed = (root / "huge-skill" / "SKILL.md").read_bytes()
    assert renamed == head.replace(b"name: big-skill", b"name: huge-skill") + body
    assert not directory.exists()


def test_renaming_refuses_a_skill_file_that_leads_out_of_the_root(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    outside = write_skill(tmp_path / "elsewhere", "linked")
    root = tmp_path / "skills"
    directory = write_skill(root, "linked")
    (directory / "SKILL.md").unlink()
    (directory / "SKILL.md").symlink_to(outside / "SKILL.md")
    before = (outside / "SKILL.md").read_bytes()
    window = make_window(root)

    assert not window.skill_ops.rename_to(directory, "other-name")

    box = open_dialog(qtbot, QMessageBox)
    assert "outside" in box.text() and "was not changed" in box.text()
    assert (outside / "SKILL.md").read_bytes() == before
    assert directory.is_dir()


def test_the_editor_fix_refuses_a_fix_that_would_change_the_body(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "skills"
    write_skill(root, "pdf-tools")
    window = make_window(root)
    tab = window.editors.open_skill(root / "pdf-tools")
    assert tab is not None
    before = tab.doc.text()
    body_start = before.index("# pdf-tools")
    # A rule whose fix reaches past its field into the body: the core's check must stop it.
    bad = Diagnostic("SK104", Severity.ERROR, "uppercase letters", 2, 7, field="name",
                     fix=Fix("Rename to `pdf-tools`",
                             (TextEdit(body_start, body_start + 11, "# gone"),)))
    monkeypatch.setattr(tab, "fresh_diagnostic", lambda _diagnostic: bad)

    applied = run(qtbot, window.skill_ops.apply_fix(Problem(tab.directory, tab.title, bad)))

    assert applied is False
    assert tab.doc.text() == before
    box = open_dialog(qtbot, QMessageBox)
    assert "would change the body" in box.text()


def test_the_editor_fix_applies_a_sound_fix(qtbot: QtBot, make_window: WindowFactory,
                                            tmp_path: Path) -> None:
    root = tmp_path / "skills"
    directory = write_skill(root, "pdf-tools")
    text = (directory / "SKILL.md").read_text().replace("---\n#", "version: 1.0\n---\n#")
    (directory / "SKILL.md").write_text(text)
    window = make_window(root)
    tab = window.editors.open_skill(directory)
    assert tab is not None
    problem = next(p for p in window.library.problems_of(directory) if p.diagnostic.code == "SK131")

    assert run(qtbot, window.skill_ops.apply_fix(problem)) is True

    assert "metadata:" in tab.doc.text() and "# pdf-tools" in tab.doc.text()
    assert not any(d.code == "SK131" for d in tab.diagnostics)

"""Fixing every finding of a code from the Problems panel: preview, apply in the background as
one step, and Edit ▸ Undo."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from studio.commands.validate import summary_counts
from studio.editing import BatchPlan
from studio.skills.checks import fixes
from studio.skills.model import Severity
from studio.skills.scan.targets import scan
from studio.ui.problems.fix_preview import PLANS_PAGE, FixPreviewDialog, headline
from tests.ui.helpers import WindowFactory, open_dialog, start, write_skill


def _with_version(root: Path, name: str) -> Path:
    folder = write_skill(root, name)
    text = (folder / "SKILL.md").read_text().replace("---\n#", "version: 1.0\n---\n#")
    (folder / "SKILL.md").write_text(text)
    return folder


def test_fix_every_previews_applies_and_undoes(qtbot: QtBot, make_window: WindowFactory,
                                               tmp_path: Path) -> None:
    root = tmp_path / "skills"
    folders = [_with_version(root, f"skill-{n}") for n in range(4)]
    write_skill(root, "clean-skill")
    before = {folder: (folder / "SKILL.md").read_bytes() for folder in folders}
    window = make_window(root)
    dirty = window.editors.open_skill(folders[3])
    assert dirty is not None
    dirty.set_text(dirty.text() + "\nMore.\n")
    window.validate_action.trigger()
    panel = window.problems_panel
    assert len(panel.skills_with_code("SK131")) == 4

    task = start(window.fix_all.fix_every("SK131", panel.skills_with_code("SK131")))
    dialog = open_dialog(qtbot, FixPreviewDialog, timeout=15000)
    assert dialog.model.rowCount() == 3
    assert "Move `version` under `metadata:`" in dialog.headline.text()
    assert "in 3 skills" in dialog.headline.text()
    assert "+  version: '1.0'" in dialog.shown_diff() or "+  version:" in dialog.shown_diff()
    assert "skill-3: it has unsaved changes" in dialog.left_out.toPlainText()
    assert all((f / "SKILL.md").read_bytes() == before[f] for f in folders), "nothing yet"
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(task.done, timeout=20000)

    assert task.result() is True
    for folder in folders[:3]:
        text = (folder / "SKILL.md").read_text()
        assert "metadata:" in text and "\nversion:" not in text
        assert text.endswith("Steps.\n")
    assert (folders[3] / "SKILL.md").read_bytes() == before[folders[3]]
    qtbot.waitUntil(lambda: len(panel.skills_with_code("SK131")) == 1, timeout=5000)
    panel.table.setFocus()
    qtbot.waitUntil(lambda: window.undo_action.text() == "&Undo Fix of SK131 in 3 Skills")
    assert window.undo_action.isEnabled()
    # One Undo in the Edit menu, not one for the editor and another for the fix (issue 44).
    edit_items = [action.text().replace("&", "") for action in window.menus.edit.actions()
                  if not action.isSeparator()]
    assert [text for text in edit_items if text.startswith("Undo")] == [
        "Undo Fix of SK131 in 3 Skills"]

    changed_since = folders[1] / "SKILL.md"
    changed_since.write_text(changed_since.read_text() + "Edited elsewhere.\n")
    edited = changed_since.read_bytes()
    panel.table.setFocus()
    window.undo_action.trigger()
    box = open_dialog(qtbot, QMessageBox, timeout=20000)

    assert "changed since the fix" in box.text() and "skill-1" in box.text()
    assert (folders[0] / "SKILL.md").read_bytes() == before[folders[0]]
    assert (folders[2] / "SKILL.md").read_bytes() == before[folders[2]]
    assert changed_since.read_bytes() == edited
    qtbot.waitUntil(lambda: window.undo_action.text() == "&Undo")
    qtbot.waitUntil(lambda: len(panel.skills_with_code("SK131")) == 3, timeout=5000)


def test_cancelling_the_preview_changes_nothing(qtbot: QtBot, make_window: WindowFactory,
                                                tmp_path: Path) -> None:
    root = tmp_path / "skills"
    folder = _with_version(root, "only-skill")
    before = (folder / "SKILL.md").read_bytes()
    window = make_window(root)

    task = start(window.fix_all.fix_every("SK131", [folder]))
    dialog = open_dialog(qtbot, FixPreviewDialog, timeout=15000)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    qtbot.waitUntil(task.done, timeout=5000)

    assert task.result() is False
    assert (folder / "SKILL.md").read_bytes() == before
    assert window.fix_all.undo_title == ""



def test_a_tab_edited_after_the_preview_is_left_as_it_is(qtbot: QtBot, make_window: WindowFactory,
                                                         tmp_path: Path) -> None:
    root = tmp_path / "skills"
    folders = [_with_version(root, f"skill-{n}") for n in range(2)]
    before = (folders[1] / "SKILL.md").read_bytes()
    window = make_window(root)
    tab = window.editors.open_skill(folders[1])
    assert tab is not None and not tab.dirty

    task = start(window.fix_all.fix_every("SK131", folders))
    dialog = open_dialog(qtbot, FixPreviewDialog, timeout=15000)
    assert dialog.model.rowCount() == 2
    tab.set_text(tab.text() + "\nTyped while the preview was open.\n")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    box = open_dialog(qtbot, QMessageBox, timeout=20000)
    qtbot.waitUntil(task.done, timeout=20000)

    assert "skill-1: it gained unsaved changes in its tab" in box.text()
    assert (folders[1] / "SKILL.md").read_bytes() == before
    assert tab.dirty and tab.text().endswith("Typed while the preview was open.\n")
    assert "metadata:" in (folders[0] / "SKILL.md").read_text()
    assert window.fix_all.undo_title == "Fix of SK131 in 1 Skill"

def _validate_counts(root: Path) -> tuple[dict[str, int], Counter[str]]:
    """What `studio validate` counts on the same files: severities, and findings per code."""
    skills = scan([root]).skills
    counts = summary_counts(skills)
    codes = Counter(d.code for s in skills for d in s.diagnostics)
    return {"errors": counts["errors"], "warnings": counts["warnings"]}, codes


def _wait_for_counts(qtbot: QtBot, counts: Callable[[], object], expected: object) -> None:
    try:
        qtbot.waitUntil(lambda: counts() == expected, timeout=5000)
    except qtbot.TimeoutError:
        assert counts() == expected


def test_counts_follow_fix_every_and_its_undo_duplicate_names_included(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    # Pairs of skills in two folders share a name (SK301 on both); most carry `version` (SK131).
    for number in range(6):
        _with_version(root / "team-a", f"shared-{number}")
        if number % 2:
            _with_version(root / "team-b", f"shared-{number}")
        else:
            write_skill(root / "team-b", f"shared-{number}")
    _with_version(root, "alone")
    window = make_window(root)
    panel = window.problems_panel
    model = panel.model

    def panel_counts() -> tuple[dict[str, int], Counter[str]]:
        severities = model.findings.severity_counts
        return ({"errors": severities[Severity.ERROR], "warnings": severities[Severity.WARNING]},
                Counter({code: count for code, count in model.findings.code_counts.items() if count}))

    window.validate_action.trigger()
    expected = _validate_counts(root)
    assert expected[1]["SK301"] == 12 and expected[1]["SK131"] == 10
    qtbot.waitUntil(lambda: panel_counts() == expected, timeout=10000)

    task = start(window.fix_all.fix_every("SK131", panel.skills_with_code("SK131")))
    dialog = open_dialog(qtbot, FixPreviewDialog, timeout=15000)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(task.done, timeout=20000)
    expected = _validate_counts(root)
    assert expected[1]["SK301"] == 12 and not expected[1]["SK131"]
    _wait_for_counts(qtbot, panel_counts, expected)

    panel.table.setFocus()
    undo = start(window.fix_all.undo_last())
    qtbot.waitUntil(undo.done, timeout=20000)
    expected = _validate_counts(root)
    assert expected[1]["SK301"] == 12 and expected[1]["SK131"] == 10
    _wait_for_counts(qtbot, panel_counts, expected)


def test_the_preview_headline_names_three_fixes_and_says_when_there_are_more() -> None:
    def plan(*applied: str) -> fixes.FixPlan:
        return fixes.FixPlan(Path("/lib/skill/SKILL.md"), "a", "b", applied=list(applied))

    moves = [f"SK131: Move `{key}` under `metadata:`" for key in ("version", "author", "tags",
                                                                   "requires")]
    few = BatchPlan("SK131", [plan(moves[0]), plan(moves[0], moves[1])] * 1000)
    assert headline(few) == ("Move `version` under `metadata:`; Move `author` under "
                             "`metadata:` — in 2,000 skills")
    many = BatchPlan("SK131", [plan(move) for move in moves] + [plan(moves[0])] * 5)
    assert headline(many).startswith("Move `version` under `metadata:`; Move `author` under "
                                     "`metadata:`; Move `tags` under `metadata:`; … — in 9 ")


def test_the_preview_gives_its_list_the_skills_a_page_at_a_time(qtbot: QtBot) -> None:
    plans = [fixes.FixPlan(Path(f"/lib/skill-{n}/SKILL.md"), "a\n", "b\n",
                           applied=["SK131: Move `version` under `metadata:`"])
             for n in range(PLANS_PAGE * 2 + 3)]
    dialog = FixPreviewDialog(BatchPlan("SK131", plans))
    qtbot.addWidget(dialog)
    model = dialog.model
    assert model.rowCount() == PLANS_PAGE and "in 1,003 skills" in dialog.headline.text()
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
    assert model.rowCount() == len(plans)
    plan = model.plan(len(plans) - 1)
    assert plan is not None and plan.skill_file.parent.name == f"skill-{len(plans) - 1}"

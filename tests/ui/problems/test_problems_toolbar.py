"""The Problems panel's toolbar: Fix Every beside Fix (and in the Edit menu), enabled only when
there is something to fix, and a Fix button that keeps its width whatever the fix is called, so
the filter keeps its room."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.skills.library.collection import Problem
from studio.skills.model import Diagnostic, Fix, Severity, TextEdit
from studio.ui.problems.problems_panel import ProblemsPanel
from tests.ui.helpers import WindowFactory, write_skill


def _problem(skill: str, code: str, fix_title: str | None, line: int = 1) -> Problem:
    fix = Fix(fix_title, (TextEdit(0, 0, ""),)) if fix_title is not None else None
    return Problem(Path("/lib") / skill, skill,
                   Diagnostic(code, Severity.WARNING, f"{code} here", line, 1, fix=fix))


def _shown_panel(qtbot: QtBot) -> ProblemsPanel:
    panel = ProblemsPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 300)
    panel.show()
    return panel


def test_fix_every_is_on_the_toolbar_for_the_selected_code(qtbot: QtBot) -> None:
    panel = _shown_panel(qtbot)
    action = panel.fix_every_action
    assert panel.fix_every_button.defaultAction() is action
    panel.set_problems([_problem("alpha", "SK209", None)])
    assert not action.isEnabled()

    panel.set_problems([_problem("alpha", "SK209", None, 1), _problem("alpha", "SK131", "Move it", 2),
                        _problem("beta", "SK131", "Move it")])
    panel.select_problem(panel.model.problems()[0])
    assert action.isEnabled()
    assert action.text() == "Fix Every SK131…"
    with qtbot.waitSignal(panel.fix_all_requested) as signal:
        panel.fix_every_button.click()
    assert signal.args == ["SK131", [Path("/lib/alpha"), Path("/lib/beta")]]

    panel.set_problems([])
    assert not action.isEnabled()


def _settle(panel: ProblemsPanel) -> None:
    QApplication.processEvents()
    panel.layout().activate()


def test_the_fix_button_keeps_its_width(qtbot: QtBot) -> None:
    panel = _shown_panel(qtbot)
    panel.set_problems([_problem("alpha", "SK104", None)])
    _settle(panel)
    width, room = panel.fix_button.width(), panel.text_filter.width()

    long_title = "Rename the skill and its folder to `a-very-long-name-for-a-skill-indeed`"
    panel.set_problems([_problem("alpha", "SK104", long_title)])
    panel.select_row(0)
    _settle(panel)
    assert panel.fix_button.isEnabled()
    assert panel.fix_button.width() == width
    assert panel.text_filter.width() == room
    assert panel.fix_button.text().startswith("Fix: Rename") and panel.fix_button.text() != (
        f"Fix: {long_title}")
    assert long_title in panel.fix_button.toolTip()


def test_fix_every_is_in_the_edit_menu(qtbot: QtBot, make_window: WindowFactory,
                                      tmp_path: Path) -> None:
    root = tmp_path / "skills"
    folder = write_skill(root, "skill-one")
    text = (folder / "SKILL.md").read_text().replace("---\n#", "version: 1.0\n---\n#")
    (folder / "SKILL.md").write_text(text)
    window = make_window(root)
    action = window.problems_panel.fix_every_action
    assert action in window.menus.edit.actions()
    window.validate_action.trigger()
    panel = window.problems_panel
    qtbot.waitUntil(lambda: "SK131" in panel.model.findings.code_counts)
    # At library scope findings come without their fixes: a selected one is offered (the
    # preview works out which skills have a fix).
    assert not action.isEnabled()
    panel.select_problem(next(p for p in panel.model.problems() if p.diagnostic.code == "SK131"))
    assert action.isEnabled() and action.text() == "Fix Every SK131…"

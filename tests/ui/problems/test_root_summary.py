"""The Problems panel's line for a root: valid, with errors, and, during a cold scan, being
checked (listed, not yet validated: counted neither valid nor with errors)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.skills import SkillSummary
from studio.skills.library import RootState
from studio.skills.model import Diagnostic, Severity
from studio.skills.scan import SkillRoot
from studio.ui.problems import problems_controller
from studio.ui.problems.problems_controller import root_summary
from tests.ui.helpers import WindowFactory, write_skill


def _skill(root: Path, name: str, *, errors: int = 0, checked: bool = True) -> SkillSummary:
    diagnostics = tuple(Diagnostic("SK131", Severity.ERROR, "not a field") for _ in range(errors))
    return SkillSummary(root, root / name, root / name / "SKILL.md", name, "Does it.",
                        checked and not errors, True, diagnostics, checked=checked)


def test_skills_being_checked_are_counted_apart() -> None:
    root = Path("/lib/skills")
    state = RootState(SkillRoot(root), skills=[
        _skill(root, "a"), _skill(root, "b", errors=2), _skill(root, "c", checked=False),
        _skill(root, "d", checked=False)])
    state.scanning = True
    assert root_summary(state) == ("skills: 1 valid, 1 with errors, 2 being checked; "
                                   "top codes SK131 ×2 (scanning…)")
    state.skills = state.skills[:2]
    state.scanning = False
    assert root_summary(state) == "skills: 1 valid, 1 with errors; top codes SK131 ×2"


def test_the_window_counts_the_roots_lines_a_slice_at_a_time(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A slice of one skill, handed back at once: the count of a large library, made small.
    monkeypatch.setattr(problems_controller, "SUMMARY_SLICE", 1)
    monkeypatch.setattr(problems_controller, "SLICE_SECONDS", 0.0)
    root = tmp_path / "team"
    for number in range(3):
        write_skill(root, f"skill-{number}")
    window = make_window(root)
    window.validate_action.trigger()
    panel = window.problems_panel
    assert window.problems.counting
    assert panel.roots_summary.text() == "team: counting…"
    qtbot.waitUntil(lambda: not window.problems.counting)
    assert panel.roots_summary.text() == "team: 3 valid, 0 with errors"

    # A refresh while the lines are counted keeps the last ones counted shown meanwhile.
    window.problems.refresh()
    assert window.problems.counting
    assert panel.roots_summary.text() == "team: 3 valid, 0 with errors"
    qtbot.waitUntil(lambda: not window.problems.counting)

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
from studio.ui.problems import findings, problems_controller, problems_model
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


def test_a_change_during_a_rebuild_waits_for_it_to_be_shown(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Every rebuild large and handed back at each slice: one of 100,000 skills, made small.
    monkeypatch.setattr(findings, "SYNC_ROWS", 0)
    monkeypatch.setattr(findings, "SLICE_ROWS", 4)
    monkeypatch.setattr(problems_model, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(problems_controller, "LIBRARY_REFRESH_MS", 0)
    root = tmp_path / "team"
    for number in range(3):
        folder = write_skill(root, f"skill-{number}")
        text = (folder / "SKILL.md").read_text().replace("---\n#", "version: 1\n---\n#")
        (folder / "SKILL.md").write_text(text)
    window = make_window(root)
    window.validate_action.trigger()
    model = window.problems_panel.model
    qtbot.waitUntil(lambda: not model.busy and model.findings.finding_count() == 3)
    shown: list[int] = []
    model.rebuilt.connect(lambda: shown.append(model.findings.finding_count()))

    window.problems.refresh()
    assert model.busy
    window.library.update_skill(window.library.summaries()[0])
    qtbot.waitUntil(lambda: len(shown) == 2)
    # The rebuild under way was shown, then the one the change asked for: neither was dropped
    # for the other (a rebuild started anew at each change of a long fix was never shown).
    assert shown == [3, 3]

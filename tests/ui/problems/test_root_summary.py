"""The Problems panel's line for a root: valid, with errors, and, during a cold scan, being
checked (listed, not yet validated: counted neither valid nor with errors)."""

from __future__ import annotations

from pathlib import Path

from studio.skills import SkillSummary
from studio.skills.library import RootState
from studio.skills.model import Diagnostic, Severity
from studio.skills.scan import SkillRoot
from studio.ui.problems.problems_controller import root_summary


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

"""A validation without fixes (what a library scan keeps) finds exactly what one with fixes
finds, for every target, and builds none of the rules' fixes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.skills import TARGETS
from studio.skills.checks import validate_skill
from studio.skills.model import Diagnostic, Skill
from studio.skills.parse import parse_skill
from tests.skills.strategies import SkillCase, skill_cases, skill_texts


def _without_fix(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return [d._replace(fix=None) for d in diagnostics]


def _same_findings(skill: Skill) -> None:
    for target in TARGETS:
        with_fixes = validate_skill(skill, target).diagnostics
        found = validate_skill(skill, target, fixes=False).diagnostics
        assert _without_fix(found) == _without_fix(with_fixes)
        # Only the parse's own findings (a byte-order mark, a value to quote) may carry one.
        assert all(d in skill.problems for d in found if d.fix is not None)


@settings(max_examples=150, database=None)
@given(case=skill_cases(), read_only=st.booleans())
def test_the_findings_without_fixes_are_the_findings_with_them(case: SkillCase,
                                                               read_only: bool) -> None:
    data = case.data
    skill = parse_skill(data, Path(f"/x/{case.folder}/SKILL.md"), max_bytes=None)
    skill.read_only = read_only
    _same_findings(skill)


@settings(max_examples=150, database=None)
@given(text=skill_texts())
def test_the_same_holds_for_arbitrary_frontmatter(text: str) -> None:
    _same_findings(parse_skill(text.encode("utf-8", "surrogatepass"), Path("/x/demo/SKILL.md"),
                               max_bytes=None))


def test_a_skill_with_every_kind_of_fix_gets_none_without_fixes() -> None:
    text = ("---\nname: Demo_Skill\ndescription: Does things. Use when asked.\nversion: 1\n"
            "allowed-tools: [Read, Write]\n---\nBody\n")
    skill = parse_skill(text.encode(), Path("/x/demo/SKILL.md"), max_bytes=None)
    offered = {d.code for d in validate_skill(skill).diagnostics if d.fix is not None}
    assert {"SK131", "SK206", "SK104"} <= offered  # the rules do offer fixes here
    assert all(d.fix is None for d in validate_skill(skill, fixes=False).diagnostics)

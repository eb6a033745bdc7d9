"""Shortcuts the validator takes for the usual skill find what the long way finds: the name
rule's plain-name case (checked with the shortcut turned off), and the findings' order (checked
against the full sort key)."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.skills.checks import names, validate_skill
from studio.skills.checks.rules import name_rule
from studio.skills.checks.validate import _sort_key
from studio.skills.model import Diagnostic, Severity
from studio.skills.parse import parse_skill
from tests.skills.strategies import EDGE_NAMES, VALID_NAMES, SkillCase, skill_cases

NAMES = st.one_of(st.sampled_from(VALID_NAMES + EDGE_NAMES),
                  st.text(alphabet="ab-1AÉé _\u00a0ｐ", max_size=8), st.just("a" * 64 + "-b"))


def _no_shortcut(name: str) -> bool:
    return False


@settings(max_examples=300, database=None)
@given(name=NAMES, folder=NAMES, same=st.booleans(), fixes=st.booleans())
def test_the_name_rule_finds_what_it_finds_without_the_shortcut(
    name: str, folder: str, same: bool, fixes: bool
) -> None:
    folder = name if same else folder
    if not folder.strip() or "/" in folder or folder in (".", ".."):
        folder = "demo"
    text = f"---\nname: {name!r}\ndescription: Does. Use when asked.\n---\nBody\n".replace("'", '"')
    skill = parse_skill(text.encode("utf-8", "surrogatepass"), Path("/x") / folder / "SKILL.md",
                        max_bytes=None)
    found = list(name_rule(skill, fixes=fixes))
    with mock.patch.object(names, "plainly_valid", _no_shortcut):
        assert found == list(name_rule(skill, fixes=fixes))


def test_a_plain_name_equal_to_its_folder_takes_the_shortcut_and_finds_nothing() -> None:
    skill = parse_skill(b"---\nname: pdf-tools\ndescription: x\n---\n", Path("/x/pdf-tools/SKILL.md"),
                        max_bytes=None)
    assert names.plainly_valid("pdf-tools") and list(name_rule(skill)) == []


@settings(max_examples=200, database=None)
@given(case=skill_cases())
def test_the_findings_come_in_the_full_key_s_order(case: SkillCase) -> None:
    skill = parse_skill(case.data, Path(f"/x/{case.folder}/SKILL.md"), max_bytes=None)
    found = validate_skill(skill).diagnostics
    assert found == sorted(found, key=_sort_key)


def test_findings_in_other_files_come_after_skill_md_s() -> None:
    skill = parse_skill(b"---\nname: demo\ndescription: x\n---\n", Path("/x/demo/SKILL.md"),
                        max_bytes=None)
    skill.problems = [Diagnostic("SK999", Severity.WARNING, "a", 3, 1, file="AGENTS.md"),
                      Diagnostic("SK999", Severity.WARNING, "b", 9, 1),
                      Diagnostic("SK999", Severity.WARNING, "c", 2, 5),
                      Diagnostic("SK999", Severity.WARNING, "d", 2, 1, file="skill.md")]
    assert [d.message for d in validate_skill(skill).diagnostics if d.code == "SK999"] == \
        ["c", "b", "d", "a"]

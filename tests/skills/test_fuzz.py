"""Fuzzing the parser, the validator and the fixes: whatever the bytes, a result and no exception.

Arbitrary bytes, arbitrary YAML (pyyaml's dumps of random structures and YAML-flavoured noise)
between `---` lines, with CRLF and BOM variants, go through parse -> validate -> JSON -> cache. Every
machine-applicable fix of every such skill is applied and the text re-parsed: its edits stay inside
the text, never overlap, change only their own ranges, and never make a readable file unreadable.
"""

from __future__ import annotations

import json
import marshal
import re
import tempfile
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.skills.checks import names
from studio.skills.checks.fixes import apply_plan, plan_fixes
from studio.skills.checks.validate import ValidationResult, validate_skill
from studio.skills.model import Diagnostic, Skill, TextEdit
from studio.skills.parse import UNREADABLE_CODES, parse_skill
from studio.skills.scan.entries import decode, encode
from studio.skills.yaml.yamledit import apply_edits
from tests.skills.strategies import skill_cases, skill_texts

SKILL_PATH = Path("/x/skill-dir/SKILL.md")
CODE = re.compile(r"SK\d{3}")
LINE_BREAK = re.compile(rb"\r\n|\r|\n")
# What YAML does not allow unescaped anywhere in a stream.
FUZZ = settings(
    max_examples=400, database=None,
)

texts = st.one_of(skill_texts(), skill_cases().map(lambda case: case.data.decode("utf-8")))


@st.composite
def mutated_skills(draw: st.DrawFn) -> bytes:
    """A generated skill's bytes with a few bytes inserted, replaced or cut anywhere."""
    data = bytearray(draw(texts).encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(("insert", "replace", "cut")))
        if how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif how == "replace" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        else:
            del data[at : at + draw(st.integers(1, 8))]
    return bytes(data)


def check_result(data: bytes) -> ValidationResult:
    """Parse and validate; check that the result is well-formed all the way to JSON and the cache."""
    skill = parse_skill(data, SKILL_PATH)
    result = validate_skill(skill)
    assert result.valid or result.errors
    assert result.valid == (not result.errors)
    line_count = len(LINE_BREAK.findall(data)) + 1
    for diagnostic in result.diagnostics:
        assert CODE.fullmatch(diagnostic.code), diagnostic
        assert diagnostic.message.strip(), diagnostic
        assert diagnostic.line >= 1 and diagnostic.column >= 1, diagnostic
        if diagnostic.file == SKILL_PATH.name:
            assert diagnostic.line <= line_count, (diagnostic, line_count)
    json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")
    summary = result.summary(SKILL_PATH.parent)
    cached = marshal.loads(marshal.dumps(encode(summary)))
    assert decode(SKILL_PATH.parent, cached).to_json() == summary.to_json()
    json.dumps(summary.to_json(), ensure_ascii=False).encode("utf-8")
    return result


@FUZZ
@given(data=st.binary(max_size=2000))
def test_arbitrary_bytes_give_a_result(data: bytes) -> None:
    check_result(data)


@FUZZ
@given(data=mutated_skills())
def test_damaged_skills_give_a_result(data: bytes) -> None:
    check_result(data)


@FUZZ
@given(text=texts)
def test_arbitrary_yaml_gives_a_result(text: str) -> None:
    result = check_result(text.encode("utf-8"))
    if result.skill.frontmatter is not None:
        assert isinstance(result.skill.frontmatter.data, dict)


def check_edits_stay_in_their_ranges(source: str, edits: tuple[TextEdit, ...], fixed: str) -> None:
    """Every character outside the edited ranges is where it was, in order, and no CRLF is split."""
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    for edit in ordered:
        assert 0 <= edit.start <= edit.end <= len(source), edit
        for boundary in (edit.start, edit.end):
            assert source[boundary - 1 : boundary + 1] != "\r\n" or boundary == 0, (edit, source)
    for first, second in pairwise(ordered):
        assert first.end <= second.start, (first, second)
    position = cursor = 0
    for edit in ordered:
        kept = source[position : edit.start]
        assert fixed[cursor : cursor + len(kept)] == kept
        cursor += len(kept)
        assert fixed[cursor : cursor + len(edit.new_text)] == edit.new_text
        cursor += len(edit.new_text)
        position = edit.end
    assert fixed[cursor:] == source[position:]


def unreadable(result: ValidationResult) -> list[Diagnostic]:
    return [d for d in result.errors if d.code in UNREADABLE_CODES]


def check_fix(skill: Skill, diagnostic: Diagnostic, readable: bool) -> None:
    fix = diagnostic.fix
    assert fix is not None and fix.title.strip()
    assert fix.edits or fix.rename_directory_to, diagnostic
    if fix.rename_directory_to is not None:
        assert names.is_valid_name(fix.rename_directory_to), fix
    if not fix.edits:
        return
    fixed = apply_edits(skill.source, fix.edits)
    assert fixed != skill.source, f"{diagnostic.code}'s fix changes nothing"
    check_edits_stay_in_their_ranges(skill.source, fix.edits, fixed)
    after = check_result(fixed.encode("utf-8"))
    if readable:
        assert not unreadable(after), (diagnostic.code, fix.title, skill.source, fixed)


@FUZZ
@given(data=st.one_of(texts.map(str.encode), mutated_skills()))
def test_every_fix_edits_only_its_ranges_and_reparses(data: bytes) -> None:
    result = check_result(data)
    readable = not unreadable(result)
    for diagnostic in result.diagnostics:
        if diagnostic.fix is not None:
            check_fix(result.skill, diagnostic, readable)


@settings(FUZZ, max_examples=150)
@given(text=texts, folder=st.sampled_from(("pdf-tools", "Bad Folder", "skill_1", "ｐｄｆ")))
def test_planning_and_applying_all_fixes_on_disk_never_raises(text: str, folder: str) -> None:
    with tempfile.TemporaryDirectory() as parent:
        directory = Path(parent) / folder
        directory.mkdir()
        (directory / "SKILL.md").write_bytes(text.encode("utf-8"))
        plan = plan_fixes(directory)
        check_result(plan.fixed.encode("utf-8"))
        apply_plan(plan)
        target = plan.rename_to or directory
        assert (target / "SKILL.md").read_bytes().decode("utf-8") == plan.fixed


def fixed_by(text: str, code: str) -> tuple[str, Skill]:
    """Apply the fix of the first `code` diagnostic; return the new text and its re-parsed skill."""
    skill = parse_skill(text.encode("utf-8"), SKILL_PATH)
    [diagnostic] = [d for d in validate_skill(skill).diagnostics if d.code == code][:1]
    assert diagnostic.fix is not None
    fixed = apply_edits(skill.source, diagnostic.fix.edits)
    return fixed, parse_skill(fixed.encode("utf-8"), SKILL_PATH)


@pytest.mark.parametrize(
    ("text", "code", "expected"),
    [
        ("---\rname: |-\r  Pdf\rdescription: Use when x\r---\r", "SK104",
         "---\rname: pdf\rdescription: Use when x\r---\r"),
        ("---\rname: skill-dir\rdescription: Use when x\rallowed-tools:\r- Bash\r- Read\r---\r",
         "SK206", "---\rname: skill-dir\rdescription: Use when x\rallowed-tools: Bash Read\r---\r"),
        ("---\rname: skill-dir\rdescription: Use when x\rversion: 1\r---\r", "SK131",
         "---\rname: skill-dir\rdescription: Use when x\rmetadata:\r  version: '1'\r---\r"),
    ],
    ids=["SK104-block-name", "SK206-block-list", "SK131-newline"],
)
def test_fixes_keep_cr_line_endings(text: str, code: str, expected: str) -> None:
    assert fixed_by(text, code)[0] == expected


def test_moving_a_field_keeps_an_escaped_control_character_escaped() -> None:
    text = '---\n"\\b x": 1\nname: skill-dir\ndescription: Use when x\n---\n'
    _, skill = fixed_by(text, "SK131")
    assert skill.frontmatter is not None, skill.problems
    assert skill.fields == {"name": "skill-dir", "description": "Use when x",
                            "metadata": {"\b x": "1"}}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("---\n{description: Use when x}\n---\n", "SK101"),
        ("---\n{name: skill-dir, description: Use when x, version: 1}\n---\n", "SK131"),
    ],
    ids=["SK101-add-name", "SK131-move"],
)
def test_no_line_fix_is_offered_on_a_flow_style_frontmatter(text: str, code: str) -> None:
    """Adding or moving a line would break a `{...}` frontmatter, so those fixes are not offered."""
    skill = parse_skill(text.encode("utf-8"), SKILL_PATH)
    [diagnostic] = [d for d in validate_skill(skill).diagnostics if d.code == code]
    assert diagnostic.fix is None

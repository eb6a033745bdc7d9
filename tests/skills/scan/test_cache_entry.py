"""What a scan worker sends back for a skill (`cache_entry`) is the summary's cache tuple, and
`valid` and `loadable` say what they said as plain loops (the oracles below)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from studio.commands.validate_report import render
from studio.skills.checks import validate_skill
from studio.skills.checks.validate import ValidationResult
from studio.skills.codes import MISSING_SKILL_FILE
from studio.skills.model import Diagnostic, Severity
from studio.skills.parse import UNREADABLE_CODES, parse_skill
from studio.skills.scan.entries import ScannedSkill, cache_entry, checked, checked_entry, encode
from tests.skills.strategies import SkillCase, skill_cases, skill_texts

ROOT = Path("/x")


def oracle_valid(result: ValidationResult) -> bool:
    return not any(d.severity is Severity.ERROR for d in result.diagnostics)


def oracle_loadable(result: ValidationResult) -> bool:
    if any((d.code in UNREADABLE_CODES or d.code == MISSING_SKILL_FILE)
           and d.severity is Severity.ERROR for d in result.diagnostics):
        return False
    name, description = result.skill.name, result.skill.description
    return bool(name) and bool(description and description.strip())


def check(text: bytes, folder: str = "demo") -> None:
    result = validate_skill(parse_skill(text, ROOT / folder / "SKILL.md", max_bytes=None))
    assert result.valid == oracle_valid(result)
    assert result.loadable == oracle_loadable(result)
    entry = cache_entry(result)
    assert entry == encode(result.summary(ROOT))
    assert all(type(d[1]) is str for d in entry[7])  # sent to the parent as plain text
    # A worker that renders what it validated skips the cache tuple: the report is the same.
    shown = ScannedSkill._make(entry)
    for as_json in (True, False):
        assert render(as_json, [checked(result)]) == render(as_json, [shown])
        assert render(as_json, [checked_entry(entry)]) == render(as_json, [shown])


@settings(max_examples=200, database=None)
@given(case=skill_cases())
def test_the_entry_is_the_summary_s_tuple(case: SkillCase) -> None:
    check(case.data, case.folder)


@settings(max_examples=200, database=None)
@given(text=skill_texts())
def test_and_so_on_arbitrary_frontmatter(text: str) -> None:
    check(text.encode("utf-8", "surrogatepass"))


FLAGS = ["", "true", "false", "yes", "no", "On", "OFF", "maybe", "1", "0", "[]", "{}", "null", "~",
         "'true'", "' no '"]


@pytest.mark.parametrize("value", FLAGS)
@pytest.mark.parametrize("key", ["disable-model-invocation", "user-invocable"])
def test_the_invocation_flags(key: str, value: str) -> None:
    check(f"---\nname: demo\ndescription: Does. Use when asked.\n{key}: {value}\n---\nBody\n"
          .encode())


@pytest.mark.parametrize("metadata", ["", "{}", "x", "{created-by: user, updated-at: 2026-01-02}",
                                      "\n  created-at: 2026-01-02 10:00:00\n  updated-by: ' '"])
def test_provenance(metadata: str) -> None:
    check(f"---\nname: demo\ndescription: Does. Use when asked.\nmetadata: {metadata}\n---\nB\n"
          .encode())


def test_an_unreadable_skill_is_neither_valid_nor_loadable() -> None:
    result = validate_skill(parse_skill(b"no frontmatter", ROOT / "demo" / "SKILL.md",
                                        max_bytes=None))
    result.diagnostics.append(Diagnostic("SK999", Severity.WARNING, "late"))
    assert not result.valid and not result.loadable
    assert (result.valid, result.loadable) == (oracle_valid(result), oracle_loadable(result))

from __future__ import annotations

from pathlib import Path

import pytest

from studio.skills.model import Severity
from studio.skills.parse import MAX_SKILL_BYTES, parse_skill

PATH = Path("/lib/demo/SKILL.md")


def codes(skill) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.code for d in skill.problems]


def test_fields_body_and_spans() -> None:
    text = "---\nname: demo\ndescription: >\n  Folded\n  text. Use when x.\n---\n# Title\n\nBody\n"
    skill = parse_skill(text.encode(), PATH)
    assert skill.name == "demo"
    assert skill.description == "Folded text. Use when x.\n"
    assert skill.body == "# Title\n\nBody\n"
    assert skill.body_span.line == 7
    spans = skill.field_spans("name")
    assert spans is not None
    assert (spans.key.line, spans.key.column, spans.value.line, spans.value.column) == (2, 1, 2, 7)
    assert skill.source[spans.value.start : spans.value.end] == "demo"
    assert skill.frontmatter is not None and skill.frontmatter.raw.startswith("name: demo")


def test_crlf_and_lf_parse_alike() -> None:
    lf = "---\nname: demo\ndescription: d\n---\nbody\n"
    crlf = lf.replace("\n", "\r\n")
    a, b = parse_skill(lf.encode(), PATH), parse_skill(crlf.encode(), PATH)
    assert a.fields == b.fields
    assert b.body == "body\r\n"
    assert a.field_spans("description") is not None
    assert b.field_spans("description").value.line == a.field_spans("description").value.line  # type: ignore[union-attr]


def test_bom_is_allowed_with_a_warning_and_fix() -> None:
    skill = parse_skill("\ufeff---\nname: demo\ndescription: d\n---\n".encode(), PATH)
    assert skill.name == "demo"
    [bom] = skill.problems
    assert bom.code == "SK015" and bom.severity is Severity.WARNING and bom.fix is not None


def test_dashes_inside_a_value_do_not_close_the_frontmatter() -> None:
    skill = parse_skill(b"---\nname: demo\ndescription: a --- b\n---\nbody", PATH)
    assert skill.description == "a --- b"
    assert skill.body == "body"


@pytest.mark.parametrize(
    ("data", "code", "line"),
    [
        (b"name: demo\n", "SK010", 1),
        (b"---\nname: demo\ndescription: d\n", "SK011", 1),
        (b"---\nname: [demo\n---\n", "SK012", 3),
        (b"---\n- a\n- b\n---\n", "SK013", 2),
        (b"---\n---\n", "SK013", 2),
        (b"---\nname: a\x00\n---\n", "SK002", 2),
        (b"---\nname: caf\xe9\n---\n", "SK003", 2),
        (b"---\nname: a\nname: b\ndescription: d\n---\n", "SK014", 3),
    ],
)
def test_unreadable_inputs_become_diagnostics(data: bytes, code: str, line: int) -> None:
    skill = parse_skill(data, PATH)
    found = [d for d in skill.problems if d.code == code]
    assert found, skill.problems
    assert found[0].line == line


def test_yaml_error_points_at_its_place_and_offers_quoting() -> None:
    skill = parse_skill(b"---\nname: demo\ndescription: Use when: you must\n---\n", PATH)
    [error] = skill.problems
    assert (error.code, error.line, error.column) == ("SK012", 3, 22)
    assert error.fix is not None and error.fix.title == "Quote the value of `description`"


def test_a_huge_file_is_read_up_to_its_first_mebibyte() -> None:
    head = b"---\nname: demo\ndescription: d\n---\n"
    skill = parse_skill(head + "é".encode() * MAX_SKILL_BYTES, PATH)
    assert codes(skill) == ["SK001"] and skill.problems[0].severity is Severity.WARNING
    assert skill.name == "demo" and len(skill.source) < MAX_SKILL_BYTES


def test_the_parse_keeps_the_bytes_it_decoded() -> None:
    whole = "---\nname: demo\ndescription: d \u2014 e\n---\nbody \u200b\n".encode()
    assert parse_skill(whole, PATH).source_bytes == whole
    # Cut at 1 MiB inside a character: the bytes kept are the ones the text was decoded from.
    head = b"---\nname: demo\ndescription: d\n---\na"
    cut = parse_skill(head + "\u20ac".encode() * MAX_SKILL_BYTES, PATH)
    assert cut.source_bytes == cut.source.encode() and len(cut.source_bytes) < MAX_SKILL_BYTES


def test_a_nul_in_the_body_only_warns() -> None:
    skill = parse_skill(b"---\nname: demo\ndescription: d\n---\nbody \x00 here\n", PATH)
    [warning] = skill.problems
    assert (warning.code, warning.severity, warning.line) == ("SK002", Severity.WARNING, 5)


def test_lone_cr_line_endings_and_yaml12_separators() -> None:
    skill = parse_skill(b"---\rname: demo\rdescription: d\r---\rbody\r", PATH)
    assert skill.problems == [] and skill.name == "demo" and skill.body == "body\r"
    text = "---\nname: demo\ndescription: a\u2028b\x85c\n---\n"
    skill = parse_skill(text.encode(), PATH)
    assert skill.problems == [] and skill.description == "a\u2028b\x85c"


def test_invalid_timestamp_is_a_diagnostic_not_a_crash() -> None:
    skill = parse_skill(b"---\nname: demo\ndescription: 2001-13-45\n---\n", PATH)
    assert codes(skill) == ["SK012"]


def test_recursive_alias_does_not_crash() -> None:
    skill = parse_skill(b"---\nname: &a [*a]\ndescription: d\n---\n", PATH)
    assert skill.frontmatter is not None or skill.problems

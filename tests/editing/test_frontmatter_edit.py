"""Rewriting one frontmatter field (or the metadata block) and keeping the rest of the text."""

from __future__ import annotations

from pathlib import Path

from studio.editing.frontmatter_edit import set_field, set_metadata, set_metadata_entry
from studio.skills.parse import parse_skill


def _skill(text: str, folder: str = "demo"):  # type: ignore[no-untyped-def]
    return parse_skill(text.encode("utf-8"), Path("/r") / folder / "SKILL.md")


BASE = "---\nname: demo\ndescription: Demo. Use when testing.\n---\n# Body\n"


def test_set_field_replaces_a_value_and_keeps_the_rest() -> None:
    assert set_field(_skill(BASE), "name", "other") == BASE.replace("name: demo", "name: other")


def test_set_field_quotes_what_yaml_would_misread() -> None:
    text = set_field(_skill(BASE), "description", "Tools: for PDFs")
    assert text is not None
    assert "description: 'Tools: for PDFs'\n" in text
    assert _skill(text).description == "Tools: for PDFs"


def test_set_field_inserts_a_missing_field_before_the_closing_line() -> None:
    text = set_field(_skill(BASE), "license", "MIT")
    assert text == BASE.replace("---\n# Body", "license: MIT\n---\n# Body")


def test_clearing_an_optional_field_removes_it_and_a_required_one_stays() -> None:
    with_license = BASE.replace("---\n# Body", "license: MIT\n---\n# Body")
    assert set_field(_skill(with_license), "license", "") == BASE
    text = set_field(_skill(BASE), "description", "")
    assert text is not None and "description: ''\n" in text


def test_set_field_keeps_crlf() -> None:
    crlf = BASE.replace("\n", "\r\n")
    text = set_field(_skill(crlf), "license", "MIT")
    assert text is not None and "license: MIT\r\n---" in text


def test_no_frontmatter_means_no_form_edit() -> None:
    assert set_field(_skill("# Just a body\n"), "name", "x") is None


def test_set_metadata_writes_and_removes_the_block() -> None:
    text = set_metadata(_skill(BASE), [("version", "1.0"), ("owner", "a: b")])
    assert text is not None
    assert text.endswith("metadata:\n  version: '1.0'\n  owner: 'a: b'\n---\n# Body\n")
    assert _skill(text).metadata == {"version": "1.0", "owner": "a: b"}
    assert set_metadata(_skill(text), []) == BASE


def test_set_metadata_entry_replaces_one_entry_and_keeps_the_others() -> None:
    text = ("---\nname: demo\nmetadata:\n  # notes\n  note: |\n    line one\n\n    line two\n"
            "  keep: [1, 2]  # a list\n---\n# Body\n")

    changed = set_metadata_entry(_skill(text), "note", "short")

    assert changed == text.replace("  note: |\n    line one\n\n    line two\n", "  note: short\n")
    added = set_metadata_entry(_skill(text), "by", "model")
    assert added == text.replace("  keep: [1, 2]  # a list\n", "  keep: [1, 2]  # a list\n  by: model\n")


def test_set_metadata_entry_gives_up_where_a_line_edit_cannot_reach() -> None:
    assert set_metadata_entry(_skill("---\nname: demo\nmetadata: {a: b}\n---\n"), "a", "c") is None
    assert set_metadata_entry(_skill("---\nname: demo\nmetadata: text\n---\n"), "a", "c") is None
    made = set_metadata_entry(_skill(BASE), "by", "model")
    assert made is not None and _skill(made).metadata == {"by": "model"}

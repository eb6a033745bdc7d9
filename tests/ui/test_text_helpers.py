"""The small pure helpers under the editor: smallest edits, UTF-16 positions, field rewrites."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.editing.frontmatter_edit import set_field, set_metadata
from studio.editing.textsync import changed_range, python_index, qt_position, utf16_length
from studio.skills.parse import parse_skill
from studio.ui.widgets.frontmatter_form import name_message

TEXT = st.text(alphabet=st.sampled_from("ab\n😀é -"), max_size=30)


@given(TEXT, TEXT)
def test_changed_range_turns_old_into_new(old: str, new: str) -> None:
    start, end, replacement = changed_range(old, new)
    assert old[:start] + replacement + old[end:] == new
    assert 0 <= start <= end <= len(old)


def test_changed_range_is_the_smallest_edit() -> None:
    assert changed_range("name: pdf\n", "name: pdfx\n") == (9, 9, "x")
    assert changed_range("aaa", "aa") == (2, 3, "")


@given(TEXT, st.integers(min_value=0, max_value=30))
def test_qt_positions_round_trip(text: str, index: int) -> None:
    index = min(index, len(text))
    position = qt_position(text, index)
    assert position == utf16_length(text[:index])
    assert python_index(text, position) == index


def test_emoji_take_two_utf16_units() -> None:
    assert qt_position("a😀b", 2) == 3
    assert python_index("a😀b", 3) == 2


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


@pytest.mark.parametrize(("typed", "message"), [
    ("pdf-tools", ""),
    ("PDF-tools", "Uppercase letters: use `pdf-tools`."),
    ("pdf tools", "Characters other than letters, digits and hyphens (' '): use `pdf-tools`."),
    ("", "A name is required: lowercase letters, digits and hyphens, like `pdf-tools`."),
    ("other", "The folder is named `pdf-tools`; the name must match it. Rename the skill (F2) "
              "to change both."),
])
def test_the_name_message_says_what_is_wrong_at_once(typed: str, message: str) -> None:
    assert name_message(typed, "pdf-tools")[0] == message

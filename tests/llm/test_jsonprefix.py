"""Telling, as a reply streams, whether it can still become one JSON object."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.llm.jsonprefix import object_prefix

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(deadline=None, max_examples=150)
@given(st.dictionaries(st.text(), JSON_VALUES, max_size=4), st.booleans())
def test_every_prefix_of_an_object_is_partial_and_the_whole_is_complete(
    value: dict[str, Any], ascii_only: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    for end in range(len(text)):
        assert object_prefix(text[:end]).status == "partial", text[:end]
    assert object_prefix(text + ' {"more": 1}') == object_prefix(text)
    state = object_prefix(text)
    assert state.status == "complete" and state.end == len(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sure! Here is the call",
        "[1, 2]",
        '{"a" "b"}',
        '{"a": 1,}',
        '{"a": tru e}',
        '{"a": [1}',
        '{"a": "\\q"}',
        '{"a": "line\nbreak"}',
        '{"a": 1.2.3}',
        '{"a": nul}',
        "{'a': 1}",
    ],
)
def test_text_that_cannot_become_an_object_is_invalid(text: str) -> None:
    assert object_prefix(text).status == "invalid"


def test_leading_space_is_allowed_and_the_end_is_where_the_object_closes() -> None:
    assert object_prefix("\n  {").status == "partial"
    assert object_prefix('  {"a": [true, null, -1e3]} tail').end == len('  {"a": [true, null, -1e3]}')

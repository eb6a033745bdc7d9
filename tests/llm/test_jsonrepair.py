"""Mending the JSON small models write."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.llm.jsonrepair import repair_json
from studio.llm.types import ToolCall


def _value(text: str) -> object:
    repaired = repair_json(text)
    assert repaired is not None
    return json.loads(repaired[0])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1,}', {"a": 1}),
        ('{"a": [1, 2, ], }', {"a": [1, 2]}),
        (
            "{'name': 'activate_skill', 'arguments': {'name': 'pdf'}}",
            {"name": "activate_skill", "arguments": {"name": "pdf"}},
        ),
        (
            "{'say': 'he said \"hi\"', 'it\\'s': True, 'x': None, 'y': False}",
            {"say": 'he said "hi"', "it's": True, "x": None, "y": False},
        ),
        (
            '{"name": "activate_skill", "arguments": {"name": "pdf"}',
            {"name": "activate_skill", "arguments": {"name": "pdf"}},
        ),
        ('{"a": "unclosed', {"a": "unclosed"}),
        ('{"a": 1, "b": [1, 2,', {"a": 1, "b": [1, 2]}),
        ('{"text": "line\nbreak"}', {"text": "line\nbreak"}),
    ],
)
def test_the_usual_slips_are_mended(text: str, expected: object) -> None:
    assert _value(text) == expected


def test_it_stops_at_the_end_of_the_value_and_refuses_mismatched_brackets() -> None:
    assert repair_json('{"a": 1} and then {"b": 2}') == ('{"a": 1}', 8)
    assert repair_json('x {"a": 1}', 2) == ('{"a": 1}', 10)
    assert repair_json('{"a": [1}') is None
    assert repair_json("no json") is None
    assert repair_json('{"a": 1', 0, 4) == ('{"a"}', 4)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=10,
    ).filter(lambda value: isinstance(value, dict | list))
)
def test_valid_json_comes_back_equal(value: object) -> None:
    assert _value(json.dumps(value)) == value


def test_native_call_arguments_are_mended_too() -> None:
    call = ToolCall.parse("c1", "activate_skill", "{'name': 'pdf',}")
    assert call.arguments == {"name": "pdf"} and call.invalid_arguments is None
    assert ToolCall.parse("c2", "activate_skill", "pdf please").invalid_arguments == "pdf please"

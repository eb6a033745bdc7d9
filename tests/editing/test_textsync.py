"""Keeping two texts in step by the smallest edit, and Python offsets against Qt's UTF-16 ones."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from studio.editing.textsync import changed_range, python_index, qt_position, utf16_length

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

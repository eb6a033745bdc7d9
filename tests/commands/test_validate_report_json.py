"""Each skill's part of `studio validate --format json`, written out piece by piece, is the text
the JSON encoder gives the same object; and its lines of text are `_line`'s."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from studio.commands.validate_report import (
    _diagnostic_json,
    _line,
    _lines,
    _skill_json,
    dumps,
)

# Strings around what escaping must handle: quotes, backslashes, controls, lone surrogates
# (names read from undecodable bytes), letters beyond ASCII, line separators.
strings = st.lists(
    st.sampled_from(['a', '"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "\u2028",
                     "\udcff", "😀", "/", " ", "SKILL.md"]),
    max_size=8,
).map("".join)
diagnostics = st.tuples(
    strings, st.sampled_from(["error", "warning", "info"]), strings,
    st.integers(min_value=-1, max_value=10**6), st.integers(min_value=0, max_value=10**6),
    st.one_of(st.just("SKILL.md"), strings), st.one_of(st.none(), strings),
)


def reference(directory: str, name: str | None, valid: Any, loadable: Any,
              found: tuple[Any, ...]) -> str:
    return dumps({
        "path": directory, "name": name, "valid": valid, "loadable": loadable,
        "diagnostics": [_diagnostic_json(d) for d in found],
    })


@given(strings, st.one_of(st.none(), strings), st.booleans(), st.booleans(),
       st.lists(diagnostics, max_size=4).map(tuple))
def test_same_text_as_the_encoder(
    directory: str, name: str | None, valid: bool, loadable: bool, found: tuple[Any, ...]
) -> None:
    assert _skill_json(directory, name, valid, loadable, found) == reference(
        directory, name, valid, loadable, found
    )


def test_values_of_other_types_go_through_the_encoder() -> None:
    odd = (("SK1", "error", "m", True, 1.5, "SKILL.md", 3),)
    assert _skill_json("d", 7, 1, None, odd) == reference("d", 7, 1, None, odd)  # type: ignore[arg-type]
    assert '"line": true' in _skill_json("d", "n", True, True, odd)


@given(strings, st.lists(diagnostics, max_size=4).map(tuple))
def test_lines_are_each_findings_line(folder: str, found: tuple[Any, ...]) -> None:
    skill_file = folder + "/SKILL.md"
    assert _lines(folder, skill_file, found) == "".join(_line(folder, skill_file, d) for d in found)

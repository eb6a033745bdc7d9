"""A YAML error's place is worked out from the lines up to the end of the frontmatter, not the
whole file: the same line, column and fix as an index of every line gives."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from studio.skills.parse import _head_index, parse_skill
from studio.skills.yaml.textpos import LineIndex

_LINES = st.lists(st.sampled_from(["name: a", "description: x: y", "", "  - b", "\u2028c",
                                   "key: |", "d\x0ce"]), max_size=8)
_BREAKS = st.sampled_from(["\n", "\r\n", "\r"])


@given(_LINES, _LINES, _BREAKS, _BREAKS)
def test_the_head_index_places_every_offset_of_the_head_as_the_whole_index(
    head: list[str], body: list[str], break_: str, body_break: str
) -> None:
    raw = "".join(line + break_ for line in head)
    text = "---" + break_ + raw + "---" + body_break + body_break.join(body)
    base = 3 + len(break_)
    whole, index = LineIndex(text), _head_index(text, base, raw)
    for offset in range(base + len(raw) + 1):
        assert index.position(offset) == whole.position(offset)
    last, _ = whole.position(base + len(raw))
    for line in range(1, last):
        assert index.line_text(line) == whole.line_text(line)


def test_a_yaml_error_in_a_long_file_is_placed_and_fixed_as_before() -> None:
    text = ("---\r\nname: demo\r\ndescription: Use when asked: for a demo\r\n---\r\n"
            + "Body line\r\n" * 500)
    skill = parse_skill(text.encode(), Path("/x/demo/SKILL.md"))
    (problem,) = skill.problems
    assert (problem.code, problem.line, problem.column) == ("SK012", 3, 28)
    assert "(line 3, column 28)" in problem.message
    assert problem.fix is not None
    assert problem.fix.edits[0].new_text == "'Use when asked: for a demo'"

"""Where the parser finds the frontmatter and the body must not depend on the shortcut it takes
for files whose line breaks are all LF or CRLF: the lines, columns and offsets are those the
plain way gives, indexing every line of the file (LF, CRLF and a lone CR each end a line)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from studio.skills.model import Span
from studio.skills.parse import _head
from studio.skills.yaml.textpos import LineIndex, position_in


def indexed_head(text: str, start: int) -> tuple[int, int, int, int, Span]:
    """`_head` the slow and obvious way."""
    index = LineIndex(text)
    if text[start : index.line_end(1)].rstrip(" \t") != "---":
        return -1, start, start, start, index.span(start, len(text))
    close = next((line for line in range(2, index.line_count + 1)
                  if index.line_text(line).rstrip(" \t") == "---"), 0)
    if not close:
        return 0, start, start, start, index.span(start, len(text))
    body = index.line_start(close + 1) if close < index.line_count else len(text)
    return close, index.line_start(2), index.line_start(close), body, Span(
        *position_in(text, body), *position_in(text, len(text)), body, len(text)
    )


LINES = st.sampled_from(["---", "--- ", "---\t", " ---", "----", "name: x", "a: b", "", "# h",
                         "x\x00y", "body text"])
BREAKS = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r\n", "\r"])


@given(st.lists(st.tuples(LINES, BREAKS), max_size=8), st.booleans(), st.booleans())
@example([("---", "\n"), ("name: x", "\n"), ("---", "\n"), ("body", "\n")], False, False)
@example([("---", "\r\n"), ("name: x", "\r\n"), ("--- ", "\r\n")], True, True)
@example([("---", "\n"), ("name: x", "\n"), ("---", "\n")], False, True)
def test_the_head_is_found_as_indexing_every_line_finds_it(
    lines: list[tuple[str, str]], bom: bool, cut: bool
) -> None:
    text = ("\ufeff" if bom else "") + "".join(line + end for line, end in lines)
    if cut:
        text = text.rstrip("\r\n")
    start = 1 if bom else 0
    assert _head(text, start) == indexed_head(text, start)

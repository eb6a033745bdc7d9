"""The skills block in AGENTS.md: written between its markers with every other byte of the file
kept (line endings, a byte-order mark, no newline at the end), appended when the file has no
markers, the same bytes on a second run, and markers that cannot be trusted refused by line."""

from __future__ import annotations

import pytest

from studio.skills.search.agentsmd import END, START, MarkerError, block_lines
from studio.skills.search.agentsmd import splice_skills_block as splice

CATALOG = "<available_skills>\n  <skill>\n    <name>tide</name>\n  </skill>\n</available_skills>"
OTHER = "<available_skills>\n</available_skills>"


def _block(newline: str = "\n", catalog: str = CATALOG) -> bytes:
    return (newline.join(block_lines(catalog)) + newline).encode()


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
@pytest.mark.parametrize("tail", ["", "\n", "  last line, no newline"])
def test_only_the_bytes_between_the_markers_change(newline: str, bom: str, tail: str) -> None:
    before = f"{bom}# Project{newline}{newline}  {START}  {newline}".encode()
    after = f"{END}{newline}Keep this.{newline}{tail}".encode()
    written = splice(before + f"stale, edited{newline}".encode() + after, CATALOG)
    assert written == before + _block(newline) + after
    assert splice(written, CATALOG) == written, "a second run changes nothing"
    assert splice(written, OTHER) == before + _block(newline, OTHER) + after


def test_a_marker_on_the_first_line_after_a_bom_is_found() -> None:
    original = f"\ufeff{START}\n{END}".encode()
    assert splice(original, CATALOG) == f"\ufeff{START}\n".encode() + _block() + END.encode()


@pytest.mark.parametrize(("original", "joined"), [
    (b"# Notes", b"# Notes\n\n"),
    (b"# Notes\n", b"# Notes\n\n"),
    (b"# Notes\n\n", b"# Notes\n\n"),
    (b"# Notes\r\nMore", b"# Notes\r\nMore\r\n\r\n"),
])
def test_a_file_without_markers_gets_the_block_appended(original: bytes, joined: bytes) -> None:
    newline = "\r\n" if b"\r\n" in original else "\n"
    written = splice(original, CATALOG)
    assert written == joined + f"{START}{newline}".encode() + _block(newline) + \
        f"{END}{newline}".encode()
    assert written.startswith(original)
    assert splice(written, CATALOG) == written


@pytest.mark.parametrize("original", [None, b""])
def test_no_file_gets_the_block_alone(original: bytes | None) -> None:
    assert splice(original, CATALOG) == f"{START}\n".encode() + _block() + f"{END}\n".encode()


@pytest.mark.parametrize(("text", "line", "says"), [
    (f"a\n{START}\n{END}\n{START}\n{END}\n", 4, "a second"),
    (f"a\n{START}\nb\n{END}\n{END}\n", 5, "a second"),
    (f"a\nb\n{START}\nc\n", 3, "has no"),
    (f"a\n{END}\n", 2, "has no"),
    (f"{END}\nx\n{START}\n", 1, "comes before"),
])
def test_untrustworthy_markers_are_refused_naming_the_line(text: str, line: int, says: str) -> None:
    with pytest.raises(MarkerError) as raised:
        splice(text.encode(), CATALOG)
    assert raised.value.line == line and says in raised.value.reason


def test_a_marker_quoted_inside_a_line_is_text_not_a_marker() -> None:
    original = f"Use `{START}` to mark the block.\n".encode()
    assert splice(original, CATALOG).startswith(original + b"\n" + START.encode())


def test_a_file_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(UnicodeDecodeError):
        splice(b"caf\xe9\n", CATALOG)

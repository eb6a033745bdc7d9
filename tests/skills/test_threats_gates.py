"""The cheap gates in front of the threat patterns say exactly what the patterns would: a gate
that said "nothing here" wrongly would hide a finding."""

from __future__ import annotations

import re
from pathlib import Path
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st

from studio.skills import parse_skill
from studio.skills.checks import threats

# The hidden characters, their neighbours in Unicode, and what real texts hold beside ASCII.
_NEAR = "\u200a\u200b\u200c\u200d\u200e\u2014\u2019\u2029\u202a\u202e\u202f\u205f\u2060\u2061" \
        "\u2065\u2066\u2069\u206a\ufeff\ufefe\U000dffff\U000e0000\U000e0041\U000e007f\U000e0080" \
        "é✓😀\ud800\udc00"
_TEXTS = st.text(alphabet=st.sampled_from(_NEAR) | st.characters(), max_size=40)


def _may_hide(text: str, skip_bom: bool = False) -> bool:
    return threats._may_hide(text.encode("utf-8", "surrogatepass"), skip_bom=skip_bom)


@given(_TEXTS, st.booleans())
def test_the_hidden_character_gate_agrees_with_the_pattern(text: str, skip_bom: bool) -> None:
    start = 1 if skip_bom and text.startswith("\ufeff") else 0
    assert _may_hide(text, skip_bom) == (threats._HIDDEN.search(text, start) is not None)


@given(st.lists(_TEXTS, min_size=1, max_size=4), st.booleans())
def test_the_gate_agrees_past_its_last_look(parts: list[str], skip_bom: bool) -> None:
    # Runs of characters that start as the hidden ones do use up the gate's looks one by one.
    text = ("\u2014\u2019\ufe0f" * (threats._HIDDEN_LOOKS // 3 + 1)).join(parts)
    start = 1 if skip_bom and text.startswith("\ufeff") else 0
    assert _may_hide(text, skip_bom) == (threats._HIDDEN.search(text, start) is not None)


def test_only_a_leading_byte_order_mark_is_skipped() -> None:
    assert _may_hide("\u200bplain", skip_bom=True)
    assert not _may_hide("\ufeffplain", skip_bom=True)
    assert _may_hide("\ufeffplain")
    assert _may_hide("\ufeff\u200b", skip_bom=True)
    assert _may_hide("\u2014 then \u200b", skip_bom=True)
    assert _may_hide("\ufeff" + "\u2014" * 40 + "\u2060", skip_bom=True)
    assert not _may_hide("\ufeff" + "\u2014" * 40, skip_bom=True)
    assert _may_hide("\u2014" * 400 + "\U000e0041")


def test_a_zero_width_space_as_the_first_character_of_skill_md_is_found(tmp_path: Path) -> None:
    text = "\u200b---\nname: demo\ndescription: A demo.\n---\nBody.\n"
    skill = parse_skill(text.encode(), tmp_path / "demo" / "SKILL.md")
    assert any(d.code == "SK501" and "U+200B" in d.message for d in threats.threats_rule(skill))


_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)


@given(st.lists(st.sampled_from(["<!--", "-->", "<!-->", "<", "!", "-", ">", "a", "\n",
                                  "<!---->"]), max_size=30).map("".join))
def test_comments_are_what_the_comment_pattern_finds(body: str) -> None:
    expected = [(match.start(), match.group(1)) for match in _COMMENT.finditer(body)]
    assert list(threats._comments(body)) == expected


def _lines_with(text: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """The lines the patterns ran on before `_Lines`: every word looked for anew."""
    starts: dict[int, int] = {}
    for word in words:
        at = text.find(word)
        while at != -1 and len(starts) < threats.MAX_LINES:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end == -1 else end
            starts[start] = end
            at = text.find(word, end)
    return sorted(starts.items())


_WORDY = st.lists(st.sampled_from(["curl", "wget", "cur", "http://", "https://", "://", "xhttp",
                                   "s://", "http", "\n", " ", "|", "a"]), max_size=40).map("".join)


@given(_WORDY, st.sampled_from([1, 2, 3, 200]))
def test_shared_lines_are_the_lines_each_word_gave(text: str, cap: int) -> None:
    with patch.object(threats, "MAX_LINES", cap):
        lines = threats._Lines(text)
        for words in (("curl", "wget"), ("wget", "http://"), ("curl", "wget", "cur")):
            assert lines.holding(words) == _lines_with(text, words)


@given(_WORDY, st.sampled_from([1, 2, 3, 200]))
def test_url_lines_are_the_lines_of_either_scheme(text: str, cap: int) -> None:
    with patch.object(threats, "MAX_LINES", cap):
        expected = _lines_with(text, ("http://", "https://")) if "://" in text else None
        assert threats._url_lines(text, threats._Lines(text)) == expected

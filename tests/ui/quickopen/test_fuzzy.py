"""The matcher behind Quick Open and the palette: which entries match a query, in what order,
and that a growing query narrows the last search without changing its answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.ui.quickopen import Matcher

NAMES = ["pdf-extract", "extract-pdf", "pdf", "spreadsheet-diff", "git-tools", "pdfa", "docx"]
HINTS = ["acme--tools/skills", "bob--pdf", "acme--tools", "carol--sheets", "dave--git",
         "erin--pdfa", "acme--office"]


def names(matcher_rows: list[int]) -> list[str]:
    return [NAMES[row] for row in matcher_rows]


def test_an_empty_query_lists_every_entry_in_order() -> None:
    found = Matcher(NAMES, HINTS).search("  ")
    assert found.rows == list(range(len(NAMES)))
    assert found.matched == len(NAMES)


@pytest.mark.parametrize(("query", "expected"), [
    # The exact name, then names starting with it (shorter first), then at a word's start,
    # then anywhere, then spread over the name, then only with the hint's help.
    ("pdf", ["pdf", "pdfa", "pdf-extract", "extract-pdf", "spreadsheet-diff"]),
    ("PDFX", ["pdf-extract"]),
    ("gt", ["git-tools"]),
    ("tools", ["git-tools", "pdf", "pdf-extract"]),
    ("acme off", ["docx"]),
    ("zzz", []),
])
def test_ranking(query: str, expected: list[str]) -> None:
    found = Matcher(NAMES, HINTS).search(query)
    assert names(found.rows) == expected
    assert found.matched == len(expected)


def test_only_the_best_are_ranked_and_all_are_counted() -> None:
    many = [f"skill-{number}" for number in range(1000)]
    found = Matcher(many, [""] * len(many)).search("skill", most=10)
    assert found.matched == 1000
    assert len(found.rows) == 10
    assert many[found.rows[0]] == "skill-0"


def test_letters_that_are_special_in_patterns_match_themselves() -> None:
    matcher = Matcher(["a.b", "a]b", "a^b", "axb"], ["", "", "", ""])
    assert [matcher.names[row] for row in matcher.search("a.b").rows] == ["a.b"]
    assert [matcher.names[row] for row in matcher.search("]").rows] == ["a]b"]
    assert [matcher.names[row] for row in matcher.search("^").rows] == ["a^b"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text("abc-", min_size=1, max_size=6), min_size=1, max_size=20),
       st.text("abc -", max_size=5), st.text("abc-", max_size=2))
def test_a_grown_query_finds_what_a_fresh_search_finds(entries: list[str], query: str,
                                                       more: str) -> None:
    hints = [""] * len(entries)
    narrowed = Matcher(entries, hints)
    narrowed.search(query)
    fresh = Matcher(entries, hints)
    assert sorted(narrowed.search(query + more).rows) == sorted(fresh.search(query + more).rows)
    # And a match is exactly an entry holding every word's letters in order.
    words = (query + more).split()

    def holds(text: str, word: str) -> bool:
        letters = iter(text)
        return all(letter in letters for letter in word)

    expected = [row for row, text in enumerate(entries) if all(holds(text, w) for w in words)]
    assert sorted(fresh.search(query + more, most=len(entries)).rows) == expected


def test_words_found_whole_in_the_hint_come_before_letters_spread_over_it() -> None:
    names = ["pdf", "pdf", "pdf", "web-search"]
    hints = ["coll/K-Dense-AI--claude-image/skills", "coll/alice--skills/skills",
             "coll/bob--claude-image", "coll/openai--claude-scientific/skills"]
    found = Matcher(names, hints).search("pdf ali")
    assert found.rows[0] == 1
    assert set(found.rows[1:]) == {0, 3}  # bob--claude-image has no l after an a

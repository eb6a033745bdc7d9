"""Whether a frontmatter may share nodes (anchors, aliases, merge keys): the search that skips to
each `&` or `*` says what the earlier pattern, which tried every character, said."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.skills.yaml.yamledit import _may_share

# The pattern before, kept as the oracle.
REFERENCE = re.compile(r"(?:^|[\s\[{,])[&*][^\s\[\]{},]|<<")

PIECES = ("&", "*", "<", "<<", " ", "\t", "\n", "\u3000", "[", "]", "{", "}", ",", "a", ":",
          "-", "(", ")", "é")
texts = st.lists(st.sampled_from(PIECES), max_size=20).map("".join)


@pytest.mark.parametrize("raw", [
    "", "*", "&", "&a", "*a", " &a", "x&a", "x*a", "[*a]", "{&a: 1}", ",*a", "* a", "&]",
    "allowed-tools: Bash(git:*) Read", "a: &x 1\nb: *x", "<<: *base", "a <b", "\u3000*a",
])
def test_table(raw: str) -> None:
    assert _may_share(raw) == (REFERENCE.search(raw) is not None)


@given(texts)
def test_same_as_the_pattern_before(raw: str) -> None:
    assert _may_share(raw) == (REFERENCE.search(raw) is not None)


@given(st.text(max_size=30))
def test_same_on_any_text(raw: str) -> None:
    assert _may_share(raw) == (REFERENCE.search(raw) is not None)

"""Any string the frontmatter editor writes reads back as that same string."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from studio.editing.frontmatter_edit import set_field, set_metadata_entry
from studio.skills.parse import parse_skill

BASE = "---\nname: demo\ndescription: Demo. Use when testing.\nmetadata:\n  owner: me\n---\n# Body\n"

# Text with a strong share of what YAML reads specially: line breaks of YAML 1.1, indicators,
# comment and mapping marks, spaces at either end, byte-order marks and control characters.
_SPECIAL = st.sampled_from(
    [*list("\u2028\u2029\x85\r\n\t #:-?[]{},&*!|>'\"%@`\\\ufeff\x00\x7f\u200b"), ": ", " #", "---", "..."]
)
_VALUES = st.lists(st.one_of(_SPECIAL, st.text(max_size=4)), max_size=8).map("".join)


def _skill(text: str):  # type: ignore[no-untyped-def]
    return parse_skill(text.encode("utf-8"), Path("/r/demo/SKILL.md"))


@settings(max_examples=400, deadline=None)
@given(_VALUES)
@example("a\u2028b")
@example("a\x85b")
@example("end\u2029")
@example(" lead and trail ")
@example("key: value # not a comment")
@example("- item")
@example("\ufeffbom")
def test_a_written_description_reads_back_equal(value: str) -> None:
    text = set_field(_skill(BASE), "description", value)
    assert text is not None
    skill = _skill(text)
    assert skill.frontmatter is not None and skill.frontmatter.data.get("description") == value
    assert skill.frontmatter.data["name"] == "demo"


@settings(max_examples=200, deadline=None)
@given(_VALUES)
@example("a\u2028b")
def test_a_written_metadata_entry_reads_back_equal(value: str) -> None:
    text = set_metadata_entry(_skill(BASE), "note", value)
    # The editor may refuse (None) but never writes something that reads otherwise.
    if text is not None:
        skill = _skill(text)
        assert skill.frontmatter is not None
        assert skill.frontmatter.data["metadata"] == {"owner": "me", "note": value}

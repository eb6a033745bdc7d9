"""Moving a field under `metadata:` keeps the comments among its lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.skills.parse import parse_skill
from studio.skills.yaml.yamledit import apply_edits, move_under_metadata

HEAD = "---\nname: demo\ndescription: D. Use when x.\n"


def _moved(fields: str, key: str) -> str:
    skill = parse_skill((HEAD + fields + "---\nbody\n").encode(), Path("/r/demo/SKILL.md"))
    text = apply_edits(skill.source, move_under_metadata(skill, key))
    again = parse_skill(text.encode(), Path("/r/demo/SKILL.md"))
    assert again.frontmatter is not None and key in again.frontmatter.data["metadata"]
    return text[len(HEAD):]


@pytest.mark.parametrize(("fields", "key", "expected"), [
    ("version: 2 # bump on release\n", "version",
     "metadata:\n  version: '2'  # bump on release\n---\nbody\n"),
    ("tags:  # topics\n  - a   # first\n  # a note\n  - 'b # kept in the value'\n", "tags",
     "metadata:\n  # first\n  # a note\n  tags: '[a, ''b # kept in the value'']'  # topics\n---\nbody\n"),
    ("metadata:\n  owner: me\nnotes: |\n  not # a comment\n", "notes",
     "metadata:\n  owner: me\n  notes: \"not # a comment\\n\"\n---\nbody\n"),
    ("author: me\n", "author", "metadata:\n  author: me\n---\nbody\n"),
])
def test_comments_move_with_the_value(fields: str, key: str, expected: str) -> None:
    assert _moved(fields, key) == expected

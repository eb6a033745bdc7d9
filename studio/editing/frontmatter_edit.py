"""Rewriting one frontmatter field of a SKILL.md text for the form, keeping every other byte.

A thin layer over `studio.skills.yamledit`: it adds inserting a field that is not there yet,
removing an optional one that was cleared, and writing the `metadata` mapping from a table.
"""

from __future__ import annotations

from studio.skills.model import Skill
from studio.skills.yamledit import apply_edits, field_block, newline_of, replace_value, scalar

REQUIRED_FIELDS = frozenset({"name", "description"})


def set_field(skill: Skill, key: str, value: str) -> str | None:
    """The skill's text with `key` set to the string `value`; None when there is no frontmatter.

    Clearing an optional field removes its line; a required one is kept as an empty string so the
    validator can say what is missing.
    """
    if not value and key not in REQUIRED_FIELDS:
        return _without_field(skill, key) if skill.frontmatter is not None else None
    return _put(skill, key, scalar(value))


def set_flag(skill: Skill, key: str, value: bool) -> str | None:
    """The skill's text with `key` set to YAML's `true` or `false`; None when there is no
    frontmatter."""
    return _put(skill, key, "true" if value else "false")


def _put(skill: Skill, key: str, yaml_value: str) -> str | None:
    """The text with `key` holding `yaml_value` (YAML as written): its value replaced where the
    field is, else a line added at the end of the frontmatter."""
    frontmatter = skill.frontmatter
    if frontmatter is None:
        return None
    text = skill.source
    if key in frontmatter.spans:
        edit = replace_value(skill, key, yaml_value)
        return apply_edits(text, (edit,)) if edit is not None else None
    line = f"{key}: {yaml_value}{newline_of(text)}"
    at = frontmatter.span.end
    return text[:at] + line + text[at:]


def set_metadata(skill: Skill, items: list[tuple[str, str]]) -> str | None:
    """The skill's text with `metadata:` holding exactly `items` (removed when there are none)."""
    frontmatter = skill.frontmatter
    if frontmatter is None:
        return None
    text = skill.source
    newline = newline_of(text)
    block = field_block(skill, "metadata")
    if not items:
        return _without_field(skill, "metadata") if block is not None else text
    lines = [f"metadata:{newline}"]
    lines.extend(f"  {scalar(key)}: {scalar(value)}{newline}" for key, value in items)
    new_block = "".join(lines)
    if block is None:
        at = frontmatter.span.end
        return text[:at] + new_block + text[at:]
    start, end = block
    return text[:start] + new_block + text[end:]


def _without_field(skill: Skill, key: str) -> str:
    block = field_block(skill, key)
    if block is None:
        return skill.source
    start, end = block
    return skill.source[:start] + skill.source[end:]

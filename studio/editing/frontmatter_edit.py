"""Rewriting one frontmatter field of a SKILL.md text for the form, keeping every other byte.

A thin layer over `studio.skills.yaml.yamledit`: it adds inserting a field that is not there yet,
removing an optional one that was cleared, writing the `metadata` mapping from a table, and
setting one entry of `metadata` with the others (and their comments) left as they are.
"""

from __future__ import annotations

import re

from studio.skills import Skill
from studio.skills.checks import fixes
from studio.skills.yaml import yamledit

REQUIRED_FIELDS = frozenset({"name", "description"})


def set_field(skill: Skill, key: str, value: str) -> str | None:
    """The skill's text with `key` set to the string `value`; None when there is no frontmatter.

    Clearing an optional field removes its line; a required one is kept as an empty string so the
    validator can say what is missing.
    """
    if not value and key not in REQUIRED_FIELDS:
        return _without_field(skill, key) if skill.frontmatter is not None else None
    return _put(skill, key, yamledit.scalar(value))


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
        edit = yamledit.replace_value(skill, key, yaml_value)
        return yamledit.apply_edits(text, (edit,)) if edit is not None else None
    line = f"{key}: {yaml_value}{yamledit.newline_of(text)}"
    at = frontmatter.span.end
    return text[:at] + line + text[at:]


def set_metadata(skill: Skill, items: list[tuple[str, str]]) -> str | None:
    """The skill's text with `metadata:` holding exactly `items` (removed when there are none)."""
    frontmatter = skill.frontmatter
    if frontmatter is None:
        return None
    text = skill.source
    newline = yamledit.newline_of(text)
    block = yamledit.field_block(skill, "metadata")
    if not items:
        return _without_field(skill, "metadata") if block is not None else text
    lines = [f"metadata:{newline}"]
    lines.extend(f"  {yamledit.scalar(key)}: {yamledit.scalar(value)}{newline}" for key, value in items)
    new_block = "".join(lines)
    if block is None:
        at = frontmatter.span.end
        return text[:at] + new_block + text[at:]
    start, end = block
    return text[:start] + new_block + text[end:]


def set_metadata_entry(skill: Skill, key: str, value: str) -> str | None:
    """The skill's text with `metadata.key` set to the string `value`, every other line kept:
    the other entries, their order and comments. None when there is no frontmatter or
    `metadata` is not a plain block mapping (written `{...}`, or not a mapping at all)."""
    frontmatter = skill.frontmatter
    if frontmatter is None:
        return None
    if "metadata" not in frontmatter.data:
        return set_metadata(skill, [(key, value)])
    block = yamledit.field_block(skill, "metadata")
    if not isinstance(frontmatter.data["metadata"], dict) or block is None:
        return None
    text = skill.source
    newline = yamledit.newline_of(text)
    start, end = block
    lines = text[start:end].splitlines(keepends=True)
    if lines[0].split(":", 1)[-1].split("#", 1)[0].strip():
        return None  # `metadata: {...}` or an alias on the key's own line
    entries = [line for line in lines[1:] if line.strip() and not line.lstrip().startswith("#")]
    if not entries:
        return None
    indent = entries[0][: len(entries[0]) - len(entries[0].lstrip(" "))]
    entry = re.compile(rf"{indent}(['\"]?){re.escape(key)}\1[ \t]*:(?:[ \t]|\r?\n|$)")
    new_line = f"{indent}{yamledit.scalar(key)}: {yamledit.scalar(value)}{newline}"
    at = next((i for i, line in enumerate(lines) if i and entry.match(line)), None)
    if at is None:
        ending = "" if lines[-1].endswith(("\n", "\r")) else newline
        changed = text[:end] + ending + new_line + text[end:]
    else:
        # The entry's lines: its own and the more indented ones under it (a block scalar).
        stop = at + 1
        while stop < len(lines) and (lines[stop].startswith(indent + " ") or not lines[stop].strip()):
            stop += 1
        while stop > at + 1 and not lines[stop - 1].strip():
            stop -= 1
        offset = start + sum(len(line) for line in lines[:at])
        length = sum(len(line) for line in lines[at:stop])
        changed = text[:offset] + new_line + text[offset + length:]
    return changed if _only_entry_changed(skill, changed, key, value) else None


def _only_entry_changed(skill: Skill, text: str, key: str, value: str) -> bool:
    """Whether `text` reads as the skill's fields with only `metadata.key` set to `value`: a
    line-based edit of YAML is checked against what it means before it is kept."""
    changed = fixes.reparse(skill, text).frontmatter
    before = skill.frontmatter
    if changed is None or before is None:
        return False
    expected = dict(before.data)
    expected["metadata"] = {**before.data["metadata"], key: value}
    return changed.data == expected


def _without_field(skill: Skill, key: str) -> str:
    block = yamledit.field_block(skill, key)
    if block is None:
        return skill.source
    start, end = block
    return skill.source[:start] + skill.source[end:]

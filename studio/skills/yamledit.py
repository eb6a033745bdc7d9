"""Text edits to a SKILL.md's frontmatter that change one field and keep every other byte."""

from __future__ import annotations

import re

import yaml

from studio.skills.model import Skill, TextEdit
from studio.skills.textpos import LineIndex


def newline_of(text: str) -> str:
    """The line ending a file uses: CRLF, a lone CR (old Mac files) or LF."""
    if "\r\n" in text:
        return "\r\n"
    if "\r" in text and "\n" not in text:
        return "\r"
    return "\n"


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# The line that ends a YAML document; only comments may follow it.
_DOCUMENT_END = re.compile(r"^\.\.\.[ \t]*(?:#[^\r\n]*)?\r?$", re.MULTILINE)

# Characters YAML does not allow raw in a scalar: they must be escaped in double quotes.
_NOT_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


def scalar(text: str) -> str:
    """`text` as a YAML scalar that reads back as exactly that string."""
    if _NOT_PRINTABLE.search(text):
        return yaml.safe_dump(text, default_style='"', allow_unicode=True, width=10**9).rstrip("\n")
    if text and text == text.strip() and "\n" not in text:
        try:
            plain_ok = yaml.load(text, Loader=_Loader) == text and not text.startswith(("'", '"'))
        except yaml.YAMLError:
            plain_ok = False
        if plain_ok and ": " not in text and " #" not in text:
            return text
    if "\n" in text:
        return yaml.safe_dump(text, default_style='"', allow_unicode=True, width=10**9).rstrip("\n")
    return "'" + text.replace("'", "''") + "'"


def replace_value(skill: Skill, key: str, new_scalar: str) -> TextEdit | None:
    """Replace a top-level field's value (one line or a block) with `new_scalar`."""
    spans = skill.field_spans(key)
    if spans is None:
        return None
    source = skill.source
    start, end = spans.key.end, spans.value.end
    trailing = ""
    if end > start and source[end - 1] in "\r\n":
        trailing = "\r\n" if source[end - 2 : end] == "\r\n" else source[end - 1]
    return TextEdit(start, end, f": {new_scalar}{trailing}")


def field_block(skill: Skill, key: str) -> tuple[int, int] | None:
    """The offsets of the whole lines a top-level field takes, newline included."""
    spans = skill.field_spans(key)
    if spans is None:
        return None
    index = LineIndex(skill.source)
    last_line = spans.value.end_line
    if spans.value.end_column == 1 and last_line > spans.key.line:
        last_line -= 1
    start = index.line_start(spans.key.line)
    end = index.line_start(last_line + 1) if last_line < index.line_count else len(skill.source)
    return start, end


def move_under_metadata(skill: Skill, key: str) -> tuple[TextEdit, ...]:
    """Edits that remove `key` from the top level and add it under `metadata:` as a string."""
    block = field_block(skill, key)
    fm = skill.frontmatter
    spans = skill.field_spans(key)
    if block is None or fm is None or spans is None or fm.flow:
        return ()
    newline = newline_of(skill.source)
    value = fm.data.get(key)
    value_text = skill.source[spans.value.start : spans.value.end].strip()
    if isinstance(value, str):
        item = scalar(value)
    elif value is None or isinstance(value, bool | int | float):
        item = scalar(value_text if value is not None else "")
    else:
        item = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**9)
        item = scalar(item.strip())
    line = f"{scalar(key)}: {item}"
    removal = TextEdit(block[0], block[1], "")
    meta = fm.data.get("metadata")
    meta_spans = skill.field_spans("metadata")
    if isinstance(meta, dict) and meta and meta_spans is not None:
        meta_block = field_block(skill, "metadata")
        source_text = skill.source[meta_spans.value.start : meta_spans.value.end]
        if meta_block is not None and not source_text.lstrip().startswith("{"):
            indent = " " * max(meta_spans.value.column - 1, 2)
            insert = TextEdit(meta_block[1], meta_block[1], f"{indent}{line}{newline}")
            return _ordered(removal, insert)
        return ()
    if meta_spans is not None:
        replaced = replace_value(skill, "metadata", "")
        if replaced is None:
            return ()
        edit = TextEdit(
            replaced.start, replaced.end, f":{newline}  {line}{replaced.new_text[2:] or newline}"
        )
        return _ordered(removal, edit)
    # A new field goes at the end of the mapping: before a `...` that ends the document, if any.
    document_end = _DOCUMENT_END.search(fm.raw)
    end_of_fm = fm.span.start + document_end.start() if document_end else fm.span.end
    return _ordered(removal, TextEdit(end_of_fm, end_of_fm, f"metadata:{newline}  {line}{newline}"))


def _ordered(*edits: TextEdit) -> tuple[TextEdit, ...]:
    return tuple(sorted(edits, key=lambda edit: (edit.start, edit.end)))


def apply_edits(text: str, edits: tuple[TextEdit, ...]) -> str:
    """Apply non-overlapping edits; later ones first so earlier offsets stay right."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.new_text + text[edit.end :]
    return text

"""Reading the plain frontmatter most skills have without libyaml, to the same values and marks.

Most public frontmatter is `key: value` lines: plain or quoted one-line scalars, `[a, b]` lists,
a few keys holding an indented list of scalars or a mapping of scalars, and a description written
as a block scalar (`description: >` or `|`, the text on the indented lines below). Parsing that
through libyaml and pyyaml's nodes costs more than all the rules that read it. `read_plain` reads
only that subset, and only where it is sure that `yamlload.load_yaml` gives the same value (same
types, same key order, duplicates kept for the duplicate-key check) and its nodes the same marks;
anything else (block scalars with a `+` or an indent in their header, or lines of spaces, or
lines indented further in a folded one; escapes, anchors, tags, deeper nesting, tabs, odd
characters or line breaks, a value continued on the next line) returns None and goes through
libyaml. Plain scalars are typed
by pyyaml's own resolver and constructors, so `yes`, `0x1F`, `1_000`, `.inf`, `~` and dates read
as they always have. `tests/skills/test_plainyaml.py` compares both readers on generated nasty
frontmatter.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from studio.skills.model import Span
from studio.skills.yaml.yamlload import FrontmatterLoader

_STR_TAG = "tag:yaml.org,2002:str"
# The tags a plain scalar of this subset may resolve to, built by pyyaml's own constructors.
_SCALAR_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("bool", "int", "float", "null", "timestamp")
)


class _Resolver(yaml.resolver.Resolver):
    """The studio loader's resolver without its parser: the same implicit tags."""

    yaml_implicit_resolvers = FrontmatterLoader.yaml_implicit_resolvers


_RESOLVER = _Resolver()
_CONSTRUCTOR = SafeConstructor()
_RESOLVED_FIRSTS = frozenset(key for key in FrontmatterLoader.yaml_implicit_resolvers if key)

# Characters libyaml does not read as plain text everywhere: a tab or other control character,
# the YAML 1.1 line breaks (NEL, LS, PS) that `load_yaml` swaps, a byte-order mark, a surrogate,
# U+FFFE and U+FFFF. (A lone CR is refused apart.) Listed rather than written as the complement
# of what is plain: that class took `re` 10 ms to compile, in every process that starts.
_UNUSUAL = re.compile(
    "[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
)
# The same for ASCII text (nearly every frontmatter): a byte of its UTF-8 is 1 here when
# `_UNUSUAL` holds it. One table lookup a byte in C, where the class took `re` about 65
# instructions a character.
_UNUSUAL_ASCII = bytes(
    int(_UNUSUAL.match(chr(byte)) is not None) if byte < 128 else 1 for byte in range(256)
)
_KEY = r"([A-Za-z_][A-Za-z0-9_.\-]{0,99}):"
# A one-line scalar: plain (to the end of the line; a comment is cut off after), single-quoted,
# double-quoted without escapes, or a flow list; then spaces and maybe a comment.
_VALUE = r"""(?:([^-?:,\[\]{}#&*!|>'"%@` ][^\n]*)|'((?:[^']|'')*)'|"([^"\\]*)"|\[([^\]]*)\])(?: +#.*| *)$"""
# A top-level field: a key at column 0, then a value or nothing (spaces, maybe a comment).
_TOP = re.compile(_KEY + r"(?: +" + _VALUE + r"| *$| +#.*)")
# A field of a nested mapping and an item of a block list: their indent, then a value.
_NESTED = re.compile(r"( *)" + _KEY + " +" + _VALUE)
_ITEM = re.compile(r"( *)- +" + _VALUE)
# A top-level key holding a block scalar: `|` (literal) or `>` (folded), maybe `-` (strip the
# final line break), then spaces and maybe a comment.
_BLOCK_TOP = re.compile(_KEY + r" +([|>])(-?)(?: +#.*| *)$")
# An item of a one-line flow list: a plain scalar without anything flow context reads specially.
_FLOW_ITEM = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@` ][^:,\[\]{}#'\"]*")


class _Unsupported(Exception):
    """Something outside the subset: libyaml reads the frontmatter instead."""


# Spans built in one C call, as a NamedTuple's own constructor is Python code.
_new = tuple.__new__

# The frontmatter's value, and each top-level key with the spans of the key and its value, in
# order (duplicates too).
Fields = list[tuple[str, Span, Span]]


def read_plain(raw: str, base: int) -> tuple[dict[str, Any], Fields] | None:
    """The frontmatter's value and its top-level fields when the text is in the plain subset
    described above, with spans in the file (the frontmatter starting at offset `base` on line
    2); None otherwise."""
    if raw.isascii():
        if 1 in raw.encode().translate(_UNUSUAL_ASCII):
            return None
    elif _UNUSUAL.search(raw) is not None:
        return None
    if "\r" in raw and raw.count("\r") != raw.count("\r\n"):
        return None
    try:
        return _read(raw, base)
    except _Unsupported:
        return None


@lru_cache(maxsize=4096)
def _typed(text: str) -> Any:
    """A plain scalar's value when some implicit tag may claim it, typed as pyyaml types it."""
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    if tag == _STR_TAG:
        return text
    if tag not in _SCALAR_TAGS:
        raise _Unsupported
    try:
        return FrontmatterLoader.yaml_constructors[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, text))
    except Exception as exc:
        # A value pyyaml resolves but cannot build (`2024-13-45`): the slow path reports it.
        raise _Unsupported from exc


def _plain(text: str) -> Any:
    return _typed(text) if text[0] in _RESOLVED_FIRSTS else text


def _value(match: re.Match[str], group: int) -> tuple[Any, int, int]:
    """The value a `_VALUE` match at `group` holds, and where its token starts and ends."""
    plain = match.group(group)
    if plain is not None:
        start = match.start(group)
        comment = plain.find(" #")
        if comment >= 0:
            plain = plain[:comment]
        plain = plain.rstrip(" ")
        if ": " in plain or plain[-1] == ":":
            raise _Unsupported
        return _plain(plain), start, start + len(plain)
    single = match.group(group + 1)
    if single is not None:
        return single.replace("''", "'"), match.start(group + 1) - 1, match.end(group + 1) + 1
    double = match.group(group + 2)
    if double is not None:
        return double, match.start(group + 2) - 1, match.end(group + 2) + 1
    inner = match.group(group + 3)
    items = []
    if inner.strip(" "):
        for part in inner.split(","):
            item = part.strip(" ")
            if _FLOW_ITEM.fullmatch(item) is None:
                raise _Unsupported
            items.append(_plain(item))
    return items, match.start(group + 3) - 1, match.end(group + 3) + 1


def _content(lines: list[str], line: int) -> int:
    """The next line from `line` on with something other than spaces and a comment (or the
    number of lines)."""
    count = len(lines)
    while line < count:
        text = lines[line]
        if text and text[0] != "#" and text[0] != " ":
            return line
        stripped = text.lstrip(" ")
        if stripped and stripped[0] != "#":
            return line
        line += 1
    return line


def _read(raw: str, base: int) -> tuple[dict[str, Any], Fields]:
    ends_with_break = raw.endswith("\n")
    lines = raw.splitlines()
    starts = [0, *accumulate(map(len, raw.splitlines(keepends=True)))]
    count = len(lines)
    data: dict[str, Any] = {}
    fields: Fields = []
    line = _content(lines, 0)
    if line == count:
        raise _Unsupported
    while line < count:
        text = lines[line]
        match = _TOP.match(text)
        if match is None:
            match = _BLOCK_TOP.match(text)
            if match is None:
                raise _Unsupported
            key = match.group(1)
            if text[0] in _RESOLVED_FIRSTS and not isinstance(_typed(key), str):
                raise _Unsupported
            at = base + starts[line]
            length = len(key)
            key_span = _new(Span, (line + 2, 1, line + 2, length + 1, at, at + length))
            value, end = _block_scalar(lines, line, match.group(2) == "|", not match.group(3),
                                       ends_with_break)
            start = match.start(2)
            value_span = _new(Span, (line + 2, start + 1, end + 2, 1, at + start, base + starts[end]))
            data[key] = value
            fields.append((key, key_span, value_span))
            line = _content(lines, end)
            continue
        key, plain = match.group(1, 2)
        if text[0] in _RESOLVED_FIRSTS and not isinstance(_typed(key), str):
            raise _Unsupported
        at = base + starts[line]
        number = line + 2
        length = len(key)
        key_span = _new(Span, (number, 1, number, length + 1, at, at + length))
        if match.lastindex != 1:
            if plain is not None and " #" not in plain and ": " not in plain:
                # Nearly every field: a plain scalar with no comment after it.
                start = match.start(2)
                plain = plain.rstrip(" ")
                if plain[-1] == ":":
                    raise _Unsupported
                value = _typed(plain) if plain[0] in _RESOLVED_FIRSTS else plain
                end = start + len(plain)
            else:
                value, start, end = _value(match, 2)
            value_span = _new(Span, (number, start + 1, number, end + 1, at + start, at + end))
            line += 1
            if line < count:
                text = lines[line]
                if not text or text[0] == " " or text[0] == "#":
                    line = _content(lines, line)
                    if line < count and lines[line][0] == " ":
                        raise _Unsupported
        else:
            value, value_span, line = _block(lines, starts, line, length, base)
        data[key] = value
        fields.append((key, key_span, value_span))
    return data, fields


def _block(
    lines: list[str], starts: list[int], key_line: int, key_length: int, base: int
) -> tuple[Any, Span, int]:
    """The value of a key with nothing after its `:`: null, or a list or mapping of one-line
    scalars on the lines below; its span, and the line of the next key."""
    count = len(lines)
    first = _content(lines, key_line + 1)
    text = lines[first] if first < count else ""
    indent = len(text) - len(text.lstrip(" "))
    is_list = text.startswith("- ", indent)
    if first == count or (indent == 0 and not is_list):
        number = key_line + 2
        at = base + starts[key_line] + key_length + 1
        return None, _new(Span, (number, key_length + 2, number, key_length + 2, at, at)), first
    pattern = _ITEM if is_list else _NESTED
    items: list[Any] = []
    mapping: dict[str, Any] = {}
    line = first
    while line < count:
        text = lines[line]
        match = pattern.match(text)
        if text[0] != " ":
            # Column 0 ends the block, but for the items of a list as indented as its key.
            if indent or match is None:
                break
        elif not indent or match is None or len(match.group(1)) != indent:
            raise _Unsupported
        if is_list:
            items.append(_value(match, 2)[0])
        else:
            key = match.group(2)
            if key[0] in _RESOLVED_FIRSTS and not isinstance(_typed(key), str):
                raise _Unsupported
            mapping[key] = _value(match, 3)[0]
        line = _content(lines, line + 1)
    # A block ends where the next key starts, or at the start of the line after the last; but
    # where the text ends without a newline on a line (blank, or a comment) shorter than the
    # block's indent, at its end: libyaml ends the block where its scan stops, at a column left
    # of the block, before it ends the text.
    start, end = starts[first] + indent, starts[line]
    end_line, end_column = line + 2, 1
    last = lines[line - 1]
    if line == count and end - starts[line - 1] == len(last) < indent:
        end_line, end_column = line + 1, len(last) + 1
    span = _new(Span, (first + 2, indent + 1, end_line, end_column, base + start, base + end))
    return (items if is_list else mapping), span, line


def _block_scalar(
    lines: list[str], key_line: int, literal: bool, clip: bool, ends_with_break: bool
) -> tuple[str, int]:
    """The text of a block scalar whose header ends `lines[key_line]`, and the line where it
    ends: the first line after it that is not empty and starts at column 0 (its empty lines
    are the block's), or the number of lines. libyaml's node ends at the start of that line.

    Only the plain shape is read: the first line below the header holds text, indented; every
    other line is empty, or indented as much (further, in a literal one). A literal block keeps
    its line breaks; a folded one joins lines with a space, and each empty line between two
    lines of text stands for one line break. Clipping keeps one final line break, stripping
    (`-`) none."""
    count = len(lines)
    first = key_line + 1
    text = lines[first] if first < count else ""
    indent = len(text) - len(text.lstrip(" "))
    if not indent or indent == len(text):
        raise _Unsupported
    pad = " " * indent
    kept: list[str] = []
    line = first
    while line < count:
        text = lines[line]
        if not text:
            kept.append("")
        elif text.startswith(pad) and text[indent:].strip(" ") and (
            literal or text[indent] != " "
        ):
            kept.append(text[indent:])
        elif text[0] == " ":
            raise _Unsupported
        else:
            break
        line += 1
    if line == count and not ends_with_break:
        raise _Unsupported  # libyaml's node then ends inside the last line
    while not kept[-1]:
        kept.pop()
    if literal:
        value = "\n".join(kept)
    else:
        value = kept[0]
        blank = 0
        for part in kept[1:]:
            if not part:
                blank += 1
                continue
            value += ("\n" * blank if blank else " ") + part
            blank = 0
    return (value + "\n" if clip else value), line

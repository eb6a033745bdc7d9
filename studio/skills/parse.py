"""Reading SKILL.md text into a `Skill`, keeping the source position of everything.

Nothing here raises on bad input: a file that is too large, binary, not UTF-8, or whose frontmatter is
missing, unclosed or not YAML becomes a `Diagnostic` on the returned skill.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from studio.skills.codes import (
    BINARY,
    CANNOT_READ,
    CRASHED,
    DUPLICATE_KEY,
    HAS_BOM,
    NO_FRONTMATTER,
    NOT_A_MAPPING,
    NOT_UTF8,
    TOO_DEEP,
    TOO_LARGE,
    UNCLOSED_FRONTMATTER,
    UNSAFE_ARCHIVE_PATH,
    YAML_ERROR,
)
from studio.skills.model import (
    Diagnostic,
    FieldSpans,
    Fix,
    Frontmatter,
    Severity,
    Skill,
    SkillFile,
    Span,
    TextEdit,
)
from studio.skills.yaml.plainyaml import Fields, read_plain
from studio.skills.yaml.textpos import LineIndex, position_in
from studio.skills.yaml.yamlload import MAX_NESTING, TooDeep, load_yaml

MAX_SKILL_BYTES = 1024 * 1024
BOM = "\ufeff"
# Where the body of a file without one stands; a tuple, so every skill can share it.
_EMPTY = Span(1, 1, 1, 1)


# Errors with these codes mean the file could not be read as a skill at all.
UNREADABLE_CODES = frozenset(
    {BINARY, NOT_UTF8, NO_FRONTMATTER, UNCLOSED_FRONTMATTER, YAML_ERROR, NOT_A_MAPPING, TOO_DEEP,
     CANNOT_READ, CRASHED, UNSAFE_ARCHIVE_PATH}
)


def parse_skill(
    data: bytes,
    path: Path,
    *,
    directory: Path | None = None,
    files: tuple[SkillFile, ...] = (),
    read_only: bool = False,
    max_bytes: int | None = MAX_SKILL_BYTES,
) -> Skill:
    """Parse the bytes of a SKILL.md. `path` is where it was read from; its parent names the skill.
    Only the first `max_bytes` are read (None: all of them, as `studio fix`, which rewrites the
    whole file, must)."""
    directory = directory if directory is not None else path.parent
    skill = Skill(
        path=path,
        directory=directory,
        dir_name=folder_name(directory),
        source="",
        frontmatter=None,
        body="",
        body_span=_EMPTY,
        files=files,
        read_only=read_only,
    )
    if max_bytes is not None and len(data) > max_bytes:
        data = data[:max_bytes]
        skill.problems.append(
            Diagnostic(
                TOO_LARGE,
                Severity.WARNING,
                f"{path.name} is over 1 MiB; only its first 1 MiB is read. Move long material "
                "into references/ and keep SKILL.md short.",
            )
        )
    encoding = _wide_encoding(data)
    if encoding is not None:
        skill.problems.append(
            Diagnostic(
                NOT_UTF8,
                Severity.ERROR,
                f"{path.name} is {encoding}, not UTF-8; save it as UTF-8 (without a byte-order "
                "mark)",
            )
        )
        return skill
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(data) - 3 and skill.problems:
            data = data[: exc.start]
            text = data.decode("utf-8")
        else:
            line = data.count(b"\n", 0, exc.start) + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            skill.problems.append(
                Diagnostic(
                    NOT_UTF8,
                    Severity.ERROR,
                    f"{path.name} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at line {line}, "
                    f"column {column}); save it as UTF-8",
                    line,
                    column,
                )
            )
            return skill
    skill.source = text
    skill.source_bytes = data
    _parse_text(skill, text)
    _check_nul(skill, text)
    return skill


# Byte-order marks and, for files without one, the NUL pattern text that starts with an ASCII
# character (`---`, or a `#` heading) has in each encoding, longest first.
_WIDE_MARKS = (
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian, with a byte-order mark)", "utf-32"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian, with a byte-order mark)", "utf-32"),
    (b"\xff\xfe", "UTF-16 (little-endian, with a byte-order mark)", "utf-16"),
    (b"\xfe\xff", "UTF-16 (big-endian, with a byte-order mark)", "utf-16"),
)
_WIDE_PATTERNS = (
    (re.compile(rb"[\x01-\x7f]\x00\x00\x00"), "UTF-32 (little-endian, without a byte-order mark)",
     "utf-32-le"),
    (re.compile(rb"\x00\x00\x00[\x01-\x7f]"), "UTF-32 (big-endian, without a byte-order mark)",
     "utf-32-be"),
    (re.compile(rb"[\x01-\x7f]\x00[\x01-\x7f]\x00"), "UTF-16 (little-endian, without a byte-order mark)",
     "utf-16-le"),
    (re.compile(rb"\x00[\x01-\x7f]\x00[\x01-\x7f]"), "UTF-16 (big-endian, without a byte-order mark)",
     "utf-16-be"),
)


def _wide_encoding(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding the file is in, named for a message, or None. The first
    bytes decide, and the whole file must then decode in that encoding."""
    head = data[:4]
    if b"\x00" not in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    for mark, name, codec in _WIDE_MARKS:
        if head.startswith(mark):
            return name if _decodes(data, codec) else None
    for pattern, name, codec in _WIDE_PATTERNS:
        if pattern.match(head):
            return name if _decodes(data, codec) else None
    return None


def _decodes(data: bytes, codec: str) -> bool:
    step = 4 if codec.startswith("utf-32") else 2
    try:
        data[: len(data) - len(data) % step].decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def folder_name(directory: Path) -> str:
    """A folder's own name, even when the path is `.`, `..` or ends in them (`studio validate .`
    from inside a skill)."""
    name = directory.name
    if name and name != "..":
        return name
    return os.path.basename(os.path.realpath(directory))


def _check_nul(skill: Skill, text: str) -> None:
    """A NUL byte in the frontmatter means the file is binary; in the body it is only odd."""
    position = text.find("\x00")
    if position < 0:
        return
    line, column = position_in(text, position)
    if skill.frontmatter is None or position < skill.body_span.start:
        skill.problems[:] = [d for d in skill.problems if d.code != YAML_ERROR]
        if not any(d.code in UNREADABLE_CODES for d in skill.problems):
            skill.problems.append(
                Diagnostic(BINARY, Severity.ERROR, f"{skill.path.name} looks binary: it holds a NUL byte",
                  line, column)
            )
        return
    skill.problems.append(
        Diagnostic(BINARY, Severity.WARNING, "the body holds a NUL byte; is part of the file binary?",
          line, column)
    )


# Spans built in one C call, as a NamedTuple's own constructor is Python code.
_new = tuple.__new__

# The line that closes the frontmatter, with the line break before it: a search for a pattern
# that starts with literal text skips ahead to it, where one for `^` tries every position. A
# lone CR as a line break is handled by the slow path.
_CLOSING = re.compile(r"\n---[ \t]*\r?$", re.MULTILINE)


def _head(text: str, start: int) -> tuple[int, int, int, int, Span]:
    """Where the frontmatter stands: the number of the line that closes it (0 when it is never
    closed, -1 when the first line does not open it), where its fields start and end, where the
    body starts (where the text starts when there is no frontmatter) and the body's span.

    Where every line break is LF or CRLF (nearly always), only the head is searched and no line
    is indexed: the body is often most of the file, and nothing in it needs a line number while
    parsing."""
    if "\r" not in text or text.count("\r") == text.count("\r\n"):
        newline = text.find("\n")
        first_line = text[start:newline].removesuffix("\r") if newline >= 0 else ""
        match = _CLOSING.search(text, newline) if first_line.rstrip(" \t") == "---" else None
        if match is not None:
            fm_end, end = match.start() + 1, match.end()
            close_line = text.count("\n", 0, fm_end) + 1
            if end < len(text):  # the closing line ends with a line break
                body_start, body_line, body_column = end + 1, close_line + 1, 1
            else:
                body_start, body_line, body_column = end, close_line, end - fm_end + 1
            end_line = body_line + text.count("\n", body_start)
            end_column = len(text) - text.rfind("\n")
            body_span = _new(Span, (body_line, body_column, end_line, end_column, body_start,
                                    len(text)))
            return close_line, newline + 1, fm_end, body_start, body_span
    index = LineIndex(text)
    if text[start : index.line_end(1)].rstrip(" \t") != "---":
        return -1, start, start, start, index.span(start, len(text))
    close_line = 0
    for line in range(2, index.line_count + 1):
        if index.line_text(line).rstrip(" \t") == "---":
            close_line = line
            break
    if not close_line:
        return 0, start, start, start, index.span(start, len(text))
    body_start = index.line_start(close_line + 1) if close_line < index.line_count else len(text)
    body_span = Span(*position_in(text, body_start), *position_in(text, len(text)), body_start,
                     len(text))
    return close_line, index.line_start(2), index.line_start(close_line), body_start, body_span


def _parse_text(skill: Skill, text: str) -> None:
    start = 0
    if text.startswith(BOM):
        start = 1
        skill.problems.append(
            Diagnostic(
                HAS_BOM,
                Severity.WARNING,
                "the file starts with a byte-order mark; some tools then miss the frontmatter",
                fix=Fix("Remove the byte-order mark", (TextEdit(0, 1, ""),)),
            )
        )
    close_line, fm_start, fm_end, body_start, body_span = _head(text, start)
    if close_line < 0:
        skill.body = text[start:]
        skill.body_span = body_span
        skill.problems.append(
            Diagnostic(
                NO_FRONTMATTER,
                Severity.ERROR,
                "SKILL.md must start with YAML frontmatter: a first line `---`, the fields, then `---`",
            )
        )
        return
    if close_line == 0:
        skill.problems.append(
            Diagnostic(
                UNCLOSED_FRONTMATTER,
                Severity.ERROR,
                "the frontmatter opened on line 1 is never closed: add a line `---` after the fields",
                end_line=1,
                end_column=4,
            )
        )
        return
    skill.body = text[body_start:]
    skill.body_span = body_span
    raw = text[fm_start:fm_end]
    # The fields start on line 2 and end where the closing line starts.
    fm_span = _new(Span, (2, 1, close_line, 1, fm_start, fm_end))
    read = _read_frontmatter(skill, raw, fm_start, text, fm_span)
    if read is None:
        return
    data, flow, fields = read
    frontmatter = Frontmatter(raw=raw, data=data, spans={}, span=fm_span, flow=flow)
    spans = frontmatter.spans
    for key, key_span, value_span in fields:
        if key in spans:
            frontmatter.duplicate_keys.append((key, key_span))
        spans[key] = _new(FieldSpans, (key_span, value_span))
    for key, span in frontmatter.duplicate_keys:
        skill.problems.append(
            Diagnostic(
                DUPLICATE_KEY,
                Severity.ERROR,
                f"`{key}` is given more than once; YAML keys must be unique (the last one wins "
                "in lenient readers, others refuse the file)",
                span.line,
                span.column,
                field=key,
            )
        )
    skill.frontmatter = frontmatter


# A frontmatter's value, whether it is in flow style, and its top-level fields.
Read = tuple[dict[str, Any], bool, Fields]


def _read_frontmatter(
    skill: Skill, raw: str, base: int, text: str, fm_span: Span
) -> Read | None:
    """Read the frontmatter `raw`, which starts at `base` in the file's `text`, through the
    plain reader where it can, else through libyaml; None (with the reason on the skill) when
    it is not a mapping of fields."""
    plain = read_plain(raw, base)
    if plain is not None:
        return plain[0], False, plain[1]
    loaded = _load_yaml(skill, raw, base, text)
    if loaded is None:
        return None
    value, node = loaded
    if not isinstance(value, dict) or not isinstance(node, yaml.MappingNode):
        kind = "empty" if value is None else f"a {type(value).__name__}"
        skill.problems.append(
            Diagnostic(
                NOT_A_MAPPING,
                Severity.ERROR,
                f"the frontmatter must be a mapping of fields (`name: ...`), but it is {kind}",
                fm_span.line,
                fm_span.column,
            )
        )
        return None
    return _string_keys(value), bool(node.flow_style), [
        (str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else repr(key_node.value),
         _span(key_node.start_mark, key_node.end_mark, base),
         _span(value_node.start_mark, value_node.end_mark, base))
        for key_node, value_node in node.value
    ]


def _string_keys(data: dict[Any, Any]) -> dict[str, Any]:
    return {key if isinstance(key, str) else str(key): value for key, value in data.items()}


def _span(start: Any, end: Any, base: int) -> Span:
    """A span from libyaml's marks, which count lines the way LineIndex does; the frontmatter's
    first line is the file's line 2."""
    return Span(
        start.line + 2, start.column + 1, end.line + 2, end.column + 1,
        base + start.index, base + end.index,
    )


def _load_yaml(
    skill: Skill, raw: str, base: int, text: str
) -> tuple[Any, yaml.Node | None] | None:
    try:
        return load_yaml(raw)
    except TooDeep as exc:
        index = _head_index(text, base, raw)
        mark = exc.problem_mark
        line, column = index.position(base + (mark.index if mark is not None else 0))
        skill.problems.append(
            Diagnostic(
                TOO_DEEP,
                Severity.ERROR,
                f"the frontmatter nests lists or mappings more than {MAX_NESTING} levels deep "
                f"(line {line}, column {column}); it is not read. Flatten it",
                line,
                column,
            )
        )
        return None
    except yaml.MarkedYAMLError as exc:
        index = _head_index(text, base, raw)
        mark = exc.problem_mark or exc.context_mark
        offset = base + (mark.index if mark is not None else 0)
        line, column = index.position(offset)
        problem = exc.problem or exc.context or "invalid YAML"
        skill.problems.append(
            Diagnostic(
                YAML_ERROR,
                Severity.ERROR,
                f"the frontmatter is not valid YAML: {problem} (line {line}, column {column})",
                line,
                column,
                fix=_quote_value_fix(index, line),
            )
        )
        return None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError, OverflowError) as exc:
        skill.problems.append(
            Diagnostic(
                YAML_ERROR,
                Severity.ERROR,
                f"the frontmatter is not valid YAML: {exc}",
                2,
                1,
            )
        )
        return None


def _head_index(text: str, base: int, raw: str) -> LineIndex:
    """The lines of the file up to the end of its frontmatter `raw` (at `base`), where every
    mark of a YAML error is: only an error needs them indexed, and the body, often most of the
    file, would cost more than the rest of the parse (a quarter of a real collection's skills
    have such an error). The text ends with a line break there, so each of these lines is
    whole and starts where it does in the file."""
    return LineIndex(text[:base + len(raw)])


def _quote_value_fix(index: LineIndex, line: int) -> Fix | None:
    """Offer to quote a top-level plain value that holds `: `, the most common YAML slip in SKILL.md."""
    for candidate in (line, line - 1):
        if candidate < 2:
            continue
        text = index.line_text(candidate)
        key, sep, value = text.partition(": ")
        if not sep or not key or key[0] in " \t#-" or not key.replace("-", "").replace("_", "").isalnum():
            continue
        stripped = value.strip()
        if not stripped or stripped[0] in "'\"|>[{&*!%@`" or ": " not in stripped:
            continue
        quoted = "'" + stripped.replace("'", "''") + "'"
        start = index.line_start(candidate) + len(key) + len(sep)
        start += len(value) - len(value.lstrip())
        end = start + len(stripped)
        return Fix(f"Quote the value of `{key}`", (TextEdit(start, end, quoted),))
    return None

"""What a skill's own words say about each placeholder of a usage line (`VALUE FROM TO`): the
sentence that mentions it, and, when a table or list in the SKILL.md or in a file it names
enumerates the values, those values, as the closed set a model picks from.

A skill written by someone else documents codes (`km`, `mi`) where the user writes words
("miles"): a model filling FROM with the user's word runs the script into an error, while a
model shown the codes (and held to them) maps the word to the code. The values are found where
a writer puts them: in the line that names the placeholder (`FORMAT is one of `json`, `csv``),
in the table or list right after it or under a heading that names it ("## Units" for UNIT), or
in the file that line names (`LEVEL is one of those in references/levels.md`). Nothing is run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_CODE = re.compile(r"`([^`\n]+)`")
_FILE = re.compile(r"(?<![\w/.-])((?:references|assets|docs|reference)/[\w./-]+\.[A-Za-z0-9]+)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_TOKEN = re.compile(r"[\w.+-]+\Z")
_SENTENCE = re.compile(r"(?<=[.!?:;])\s+(?=[A-Z`(])")
_MIN_VALUES = 2
_MAX_VALUES = 80
_SAID_CHARS = 200
_FILE_CHARS = 20_000


Pairs = tuple[tuple[str, str], ...]
"""Values with what the skill says of each."""


@dataclass(frozen=True, slots=True)
class Described:
    """A placeholder as the skill documents it: what a line says of it (or ""), and the values
    it takes when they are listed (empty when open), each with what its row or item says of it
    ("mi": "mile"; "" when nothing)."""

    name: str
    said: str
    values: tuple[str, ...]
    notes: tuple[str, ...] = ()


def describe(placeholders: Sequence[str], body: str, read: Callable[[str], str | None],
             usage_lines: Sequence[str] = ()) -> list[Described]:
    """Each of `placeholders` as `body` (a SKILL.md's body) documents it; `read` gives the text
    of a file of the skill the body names (None when it cannot be read). The usage lines
    themselves say nothing of a placeholder."""
    lines = body.splitlines()
    found = []
    for name in placeholders:
        said = ""
        values: Pairs = ()
        for index, line in enumerate(lines):
            if not _mentions(line, name) or any(usage in line for usage in usage_lines):
                continue
            said = said or _sentence(_paragraph(lines, index), name)
            values = values or _values_near(lines, index, name, read)
        if not values:
            values = _values_under_heading(lines, name)
        found.append(Described(name, said, tuple(v for v, _ in values), tuple(n for _, n in values)))
    return found


def referenced_files(body: str) -> list[str]:
    """The files of the skill its SKILL.md names (`references/units.md`), in order."""
    return list(dict.fromkeys(match.group(1).rstrip(".") for match in _FILE.finditer(body)))


def _mentions(line: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", line) is not None


def _paragraph(lines: Sequence[str], index: int) -> str:
    """The line at `index` and the rest of its paragraph (up to a blank line, a table, a list or
    a heading)."""
    end = index + 1
    while end < len(lines) and lines[end].strip() and not (
            _ROW.match(lines[end]) or _ITEM.match(lines[end]) or _HEADING.match(lines[end])):
        end += 1
    return " ".join(line.strip() for line in lines[index:end])


def _sentence(text: str, name: str) -> str:
    """The sentence of `text` that names `name`, without markdown's list marks."""
    text = " ".join(text.strip().lstrip("-*+#>|").split())
    for sentence in _SENTENCE.split(text):
        if _mentions(sentence, name):
            return sentence[:_SAID_CHARS]
    return text[:_SAID_CHARS]


def _values_near(lines: Sequence[str], index: int, name: str,
                 read: Callable[[str], str | None]) -> Pairs:
    """The values the line at `index` (which names `name`) lists, with the rest of its
    paragraph, else those of the table or list right after it, else those of the first file it
    names."""
    paragraph = _paragraph(lines, index)
    end = index + 1
    while end < len(lines) and lines[end].strip() and not (
            _ROW.match(lines[end]) or _ITEM.match(lines[end]) or _HEADING.match(lines[end])):
        end += 1
    # Only the sentences that name it speak of it ("AMOUNT is the price. COUNTRY is one of ...").
    sentences = _SENTENCE.split(paragraph)
    line = " ".join(sentence for sentence in sentences if _mentions(sentence, name))
    inline = [(value, "") for value in _CODE.findall(line.split(name, 1)[-1])
              if _TOKEN.match(value) and value != name]
    if len(inline) >= _MIN_VALUES:
        return _closed(inline)
    # A table or list right after the paragraph is its values when the paragraph's last
    # sentence names it ("FROM and TO are codes from the table below:").
    listed = _block_values(lines, end) if _mentions(sentences[-1], name) else ()
    if listed:
        return listed
    for path in referenced_files(line):
        text = read(path)
        if text:
            values = _file_values(text[:_FILE_CHARS])
            if values:
                return values
    return ()


def _values_under_heading(lines: Sequence[str], name: str) -> Pairs:
    """The values of the first table or list under a heading that names the placeholder's word
    ("## Units" for UNIT, "## Levels" for LEVEL)."""
    words = {part for part in name.lower().split("_") if len(part) > 2}
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading is None:
            continue
        said = {word.rstrip("s") for word in re.findall(r"[a-z]+", heading.group(1).lower())}
        if words & said:
            values = _block_values(lines, index + 1, skip_prose=True)
            if values:
                return values
    return ()


def _block_values(lines: Sequence[str], start: int, *, skip_prose: bool = False) -> Pairs:
    """The first cell's or the leading code of each row of the table or item of the list that
    starts at `start` (after blank lines, and after prose when `skip_prose`)."""
    index = start
    while index < len(lines) and (not lines[index].strip() or (
            skip_prose and not _ROW.match(lines[index]) and not _ITEM.match(lines[index])
            and not _HEADING.match(lines[index]))):
        index += 1
    values: list[tuple[str, str]] = []
    header = True
    while index < len(lines):
        line = lines[index]
        row, item = _ROW.match(line), _ITEM.match(line)
        if row:
            if _RULE.match(line):
                header = False
            elif not header or not _RULE.match(lines[index + 1] if index + 1 < len(lines) else ""):
                cells = [cell.strip() for cell in row.group(1).split("|")]
                values += [(value, ", ".join(filter(None, cells[1:]))) for value in _leading(cells[0])]
        elif item:
            values += [(value, _rest(item.group(1))) for value in _leading(item.group(1))]
        else:
            break
        index += 1
    return _closed(values)


def _file_values(text: str) -> Pairs:
    """The values of the first table or list of a referenced file."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if _ROW.match(line) or _ITEM.match(line):
            values = _block_values(lines, index)
            if values:
                return values
    return ()


def _leading(cell: str) -> list[str]:
    """The value a table cell or list item starts with: its first code span, or a lone word
    before a colon or dash."""
    text = cell.strip()
    code = _CODE.match(text)
    if code:
        return [code.group(1)] if _TOKEN.match(code.group(1)) else []
    head = re.split(r"\s[-–—:]\s|:\s|\s\(", text, maxsplit=1)[0].strip().strip("*")
    return [head] if head and _TOKEN.match(head) else []


def _rest(item: str) -> str:
    """What a list item says of the value it starts with (`snake`: "words joined by ...")."""
    text = _CODE.sub(lambda m: m.group(1), item.strip(), count=1)
    parts = re.split(r"\s[-–—:]\s|:\s", text, maxsplit=1)
    return parts[1].strip() if len(parts) > 1 else ""


def _closed(values: Sequence[tuple[str, str]]) -> Pairs:
    first: dict[str, str] = {}
    for value, note in values:
        first.setdefault(value, note)
    return tuple(first.items()) if _MIN_VALUES <= len(first) <= _MAX_VALUES else ()

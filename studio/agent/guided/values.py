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
_DOC = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:md|markdown|txt|csv|tsv|rst|ya?ml))(?![\w/-])",
                  re.IGNORECASE)
"""A document of the skill its text names, in any folder or none (`CODES.md`), any case."""
_WORD = r"[A-Za-z0-9][\w.+-]*"
_PROSE_LIST = re.compile(
    rf"\b(?:either|one of|is|are|be|takes|accepts)\s+(?P<list>{_WORD}(?:\s*,\s*{_WORD})*,?\s+or\s+{_WORD})")
"""Values listed in prose: "is circle, square or triangle", "either walking, running or cycling"."""
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")
_SECTION = re.compile(r"^\s{0,3}#{2,6}\s+(.*)$")
"""A section's heading: the first level is the skill's title ("# Recase text" names no TEXT)."""
_LISTING = re.compile(r"\b(?:listed|lists?|one of|known|supported|accepted|valid|allowed|available)\b",
                      re.IGNORECASE)
_SUBCOMMANDS = re.compile(r"\b(?:sub-?commands?|commands|actions|operations|modes)\b", re.IGNORECASE)
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_TOKEN = re.compile(r"[\w.+-]+\Z")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z`(])")
"""Sentences end at a stop; a colon introduces what follows ("one letter each: `C`, `F` or `K`")."""
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
    # A usage line says nothing of its placeholders; the prose around it on its line may.
    for index, line in enumerate(lines):
        for usage in usage_lines:
            line = line.replace(f"`{usage}`", "").replace(usage, "")
        lines[index] = line if line.strip(" `$") or not lines[index].strip() else "```"
    found = []
    first = _first_placeholder(placeholders, usage_lines)
    for name in placeholders:
        said = ""
        values: Pairs = ()
        for index, line in enumerate(lines):
            if not _mentions(line, name):
                continue
            said = said or _sentence(_paragraph(lines, index), name)
            values = values or _values_near(lines, index, name, read)
        if not values and name == first:
            values = _subcommands(lines)
        if not values:
            values = _values_under_heading(lines, name)
        if not values:
            values = _values_after_intro(lines, name)
        if not values:
            values = _column_values(body, name, said)
        if not values:
            values = _named_file_values(lines, name, read)
        if any(value in placeholders for value, _ in values):
            # A list of the usage line's own placeholders ("* LENGTH — ...", "* WIDTH — ...")
            # says what each operand is, not what one of them takes.
            values = ()
        notes = tuple(n for _, n in values)
        if values and not any(notes):
            notes = _clause_notes(body, [v for v, _ in values])
        found.append(Described(name, said, tuple(v for v, _ in values), notes))
    return found


def _clause_notes(body: str, values: Sequence[str]) -> tuple[str, ...]:
    """What the skill's prose says of each value when a clause names it alone ("a bug fix bumps
    `patch`": "a bug fix bumps"), in the values' order; () when it says so of fewer than two."""
    said: dict[str, str] = {}
    text = " ".join(body.split())
    for clause in re.split(r"[,;:.]\s+|\s+(?:and|or)\s+(?=[a-z])", text):
        named = [value for value in _CODE.findall(clause) if value in values]
        words = re.sub(r"^(?:and|or|but)\s+", "", " ".join(_CODE.sub(" ", clause).split()))
        if len(set(named)) == 1 and words:
            said.setdefault(named[0], words)
    return tuple(said.get(value, "") for value in values) if len(said) >= _MIN_VALUES else ()


def listed_notes(values: Sequence[str], body: str) -> tuple[str, ...]:
    """What a table or list of `body` says of each of `values` (found elsewhere: the keys of a
    script's dict) when one lists them all ("* `EUR` — euro"), in their order; () when none does."""
    lines = body.splitlines()
    for index, line in enumerate(lines):
        starts = (_ROW.match(line) or _ITEM.match(line)) and not (
            index and (_ROW.match(lines[index - 1]) or _ITEM.match(lines[index - 1])))
        if not starts:
            continue
        said = dict(_block_values(lines, index))
        # A figure (a factor, a rate) is no note a model maps the user's word to.
        if set(values) <= set(said) and any(re.search(r"[A-Za-z]", said[v]) for v in values):
            return tuple(said[value] for value in values)
    return ()


def _first_placeholder(placeholders: Sequence[str], usage_lines: Sequence[str]) -> str:
    """The placeholder that comes first after the script in a usage line (where a subcommand
    goes), or ""."""
    for line in usage_lines:
        for word in line.split()[2:3]:
            if word in placeholders:
                return word
    return ""


def _subcommands(lines: Sequence[str]) -> Pairs:
    """The values of a list or table introduced as the subcommands ("Subcommands:", "## Modes")."""
    for index, line in enumerate(lines):
        if _SUBCOMMANDS.search(line) and not _ROW.match(line) and not _ITEM.match(line):
            values = _block_values(lines, index + 1)
            if values:
                return values
    return ()


def referenced_files(body: str) -> list[str]:
    """The files of the skill its SKILL.md names (`references/units.md`, `CODES.md`), in order."""
    found = [match.group(1).rstrip(".") for pattern in (_FILE, _DOC) for match in pattern.finditer(body)]
    return list(dict.fromkeys(path for path in found if path.upper() != "SKILL.MD"))


def _word_of(name: str) -> re.Pattern[str]:
    """The placeholder's words as prose writes them ("sizes" for SIZE, "city" for CITY_A)."""
    words = [part for part in name.lower().split("_") if len(part) > 2]
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words or [name.lower()])) + r")(?:e?s)?\b",
                      re.IGNORECASE)


def _named_file_values(lines: Sequence[str], name: str, read: Callable[[str], str | None]) -> Pairs:
    """The values of a file a line names when the line speaks of the placeholder in words
    ("The sizes the script knows are listed in references/sizes.md" for SIZE)."""
    word = _word_of(name)
    for line in lines:
        # "see references/schema-subset.md" for SCHEMA names a manual, not the schemas it takes.
        prose = _DOC.sub("", _FILE.sub("", line))
        if not word.search(prose):
            continue
        for path in referenced_files(line):
            text = read(path)
            if not text:
                continue
            # Said to list them, any table of the file; else one whose column the placeholder's
            # word heads ("Find the SPDX id in LICENSES.md": its "SPDX id" column).
            values = _file_values(text[:_FILE_CHARS], name, line) if _LISTING.search(prose) else \
                _column_values(text[:_FILE_CHARS], name, "")
            if values:
                return values
    return ()


def _column_values(text: str, name: str, said: str) -> Pairs:
    """The values of a table column whose header names the placeholder ("palette name" for NAME,
    "City key" for CITY_A) or that the placeholder's sentence names ("the Option column")."""
    word = _word_of(name)
    # The sentence's own words, without the placeholder: "one of the codes listed in ..." names
    # the Code column; "COUNTRY" there does not name the Country column.
    said_words = {w.rstrip("s") for w in re.findall(r"[a-z]+", re.sub(
        rf"\b{re.escape(name)}\b", "", said).lower())}
    lines = text.splitlines()
    for index, line in enumerate(lines):
        head = _ROW.match(line)
        if head is None or index + 1 >= len(lines) or not _RULE.match(lines[index + 1]):
            continue
        header = [cell.strip().strip("`*").lower() for cell in head.group(1).split("|")]
        column = next((i for i, cell in enumerate(header)
                       if (words := {w.rstrip("s") for w in re.findall(r"[a-z]+", cell)})
                       and words <= said_words), None)
        if column is None:
            column = next((i for i, cell in enumerate(header) if word.search(cell)), None)
        if column is None:
            continue
        values: list[tuple[str, str]] = []
        for row_line in lines[index + 2:]:
            row = _ROW.match(row_line)
            if row is None:
                break
            cells = [cell.strip() for cell in row.group(1).split("|")]
            if column < len(cells):
                others = ", ".join(c.strip("`") for i, c in enumerate(cells) if i != column and c)
                values += [(value, others) for value in _leading(cells[column])]
        if closed := _closed(values):
            return closed
    return ()


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
    # What follows the placeholder's last mention, up to the next placeholder's.
    after = re.split(r"\b[A-Z][A-Z0-9_]+\b", line.rsplit(name, 1)[-1], maxsplit=1)[0]
    prose = _PROSE_LIST.search(after)
    if prose:
        words = [(value.rstrip("."), "") for value in re.split(r"\s*,\s*|,?\s+or\s+", prose.group("list"))
                 if value.rstrip(".") and value != name]
        if len(words) >= _MIN_VALUES:
            return _closed(words)
    # A table or list right after the paragraph is its values when the paragraph's last
    # sentence names it ("FROM and TO are codes from the table below:").
    listed = _block_values(lines, end) if _mentions(sentences[-1], name) else ()
    if listed:
        return listed
    for path in referenced_files(line):
        text = read(path)
        if text:
            values = _file_values(text[:_FILE_CHARS], name, line)
            if values:
                return values
    return ()


def _values_under_heading(lines: Sequence[str], name: str) -> Pairs:
    """The values of the first table or list under a heading that names the placeholder's word
    ("## Units" for UNIT, "## Levels" for LEVEL)."""
    words = {part for part in name.lower().split("_") if len(part) > 2}
    for index, line in enumerate(lines):
        heading = _SECTION.match(line)
        if heading is None:
            continue
        said = {word.rstrip("s") for word in re.findall(r"[a-z]+", heading.group(1).lower())}
        if words & said:
            values = _block_values(lines, index + 1, skip_prose=True)
            if values:
                return values
    return ()


def _values_after_intro(lines: Sequence[str], name: str) -> Pairs:
    """The values of the table or list right after a line of prose that speaks of the
    placeholder's word and ends with a colon ("Units the script understands:" for UNIT)."""
    word = _word_of(name)
    for index, line in enumerate(lines):
        text = line.strip()
        if text.endswith(":") and not (_ROW.match(line) or _ITEM.match(line) or _HEADING.match(line)) \
                and word.search(text) and (values := _block_values(lines, index + 1)):
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


def _file_values(text: str, name: str = "", said: str = "") -> Pairs:
    """The values of a referenced file: those of a table column whose header the sentence
    naming the file (`said`) or the placeholder names, else of its first table or list."""
    if name and (column := _column_values(text, name, said)):
        return column
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

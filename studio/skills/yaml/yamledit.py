"""Text edits to a SKILL.md's frontmatter that change one field and keep every other byte."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

import yaml

from studio.skills.model import Skill, TextEdit
from studio.skills.yaml.textpos import LineIndex


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
# Characters a quoted scalar may not hold raw either: YAML 1.1's line breaks (NEL, LS, PS), which
# single quotes fold into a space, a lone CR, and a byte-order mark, which a reader may drop.
_ESCAPE_ONLY = re.compile("[\r\x85\u2028\u2029\ufeff]")


def scalar(text: str) -> str:
    """`text` as a YAML scalar that reads back as exactly that string."""
    if _NOT_PRINTABLE.search(text) or _ESCAPE_ONLY.search(text):
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


class FieldText(NamedTuple):
    """Where a top-level field's key and value stand in the source, as offsets. For a value that
    is an alias (`*name`), the value is the alias itself, not the node it names."""

    key_start: int
    key_end: int
    value_start: int
    value_end: int
    flow: bool = False


class _Layout(NamedTuple):
    """The top-level fields of a frontmatter read event by event, where every anchor is defined
    (with the text of its scalar when that can stand in for an alias of it) and where every alias
    starts and ends (offsets into the frontmatter's text)."""

    fields: dict[str, FieldText]
    anchors: tuple[tuple[str, int, str | None], ...]
    aliases: tuple[tuple[str, int, int], ...]


# What may make a node appear twice: an anchor, an alias or a merge key. libyaml gives an alias
# the marks of the node it names, so a field's parsed spans then point elsewhere; such a
# frontmatter is read again event by event. Most never match, and pay nothing more.
# The anchor or alias: a `&` or `*` at the start or after a space, `[`, `{` or `,`, and not
# alone. The search skips to each `&` or `*` (`Bash(git:*)` in `allowed-tools` has one), and
# looks behind from there: a search for what comes before one would try every character.
_MAY_SHARE = re.compile(r"[&*](?<![^\s\[{,][&*])[^\s\[\]{},]")


@functools.lru_cache(maxsize=8)
def _may_share(raw: str) -> bool:
    # The rules ask several times per skill; the `in` tests run in C and nearly always say no.
    return "<<" in raw or (("&" in raw or "*" in raw) and _MAY_SHARE.search(raw) is not None)


_NODE_START = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)
_COLLECTION_START = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_COLLECTION_END = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _at(mark: Any) -> int:
    """A mark's offset (pyyaml's and libyaml's marks are two types with the same fields)."""
    return int(mark.index) if mark is not None else 0


def _inline_text(raw: str, event: Any) -> str | None:
    """The text of an anchored one-line scalar without its anchor (`&v "1.0"` gives `"1.0"`),
    which can replace an alias of it; None for anything else."""
    if not isinstance(event, yaml.ScalarEvent) or event.style not in (None, "'", '"'):
        return None
    text = raw[_at(event.start_mark) : _at(event.end_mark)]
    rest = text[len(str(event.anchor)) + 1 :].lstrip(" \t")
    if not rest or rest.startswith("!") or "\n" in rest or "\r" in rest:
        return None
    return rest


@functools.lru_cache(maxsize=8)
def _layout(raw: str) -> _Layout | None:
    """The layout of a frontmatter that `_MAY_SHARE` matched, or None when it is not a
    mapping of YAML libyaml reads."""
    fields: dict[str, FieldText] = {}
    anchors: list[tuple[str, int, str | None]] = []
    aliases: list[tuple[str, int, int]] = []
    depth = 0
    key: tuple[str | None, int, int] | None = None
    value: tuple[int, bool] | None = None
    try:
        for event in yaml.parse(raw, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                aliases.append((str(event.anchor), _at(event.start_mark), _at(event.end_mark)))
            elif isinstance(event, _NODE_START) and event.anchor is not None:
                anchors.append((event.anchor, _at(event.start_mark), _inline_text(raw, event)))
            if depth == 0 and isinstance(event, _NODE_START):
                if not isinstance(event, yaml.MappingStartEvent):
                    return None
            elif depth == 1 and isinstance(event, _NODE_START):
                if key is None:
                    name = event.value if isinstance(event, yaml.ScalarEvent) else None
                    key = (name, _at(event.start_mark), _at(event.end_mark))
                else:
                    value = (_at(event.start_mark), bool(getattr(event, "flow_style", False)))
            if isinstance(event, _COLLECTION_START):
                depth += 1
            elif isinstance(event, _COLLECTION_END):
                depth -= 1
            if depth == 1 and value is not None and key is not None and (
                isinstance(event, _COLLECTION_END) or not isinstance(event, _COLLECTION_START)
            ):
                if key[0] is not None:
                    fields[key[0]] = FieldText(key[1], key[2], value[0], _at(event.end_mark),
                                               value[1])
                key = value = None
    except yaml.YAMLError:
        return None
    return _Layout(fields, tuple(anchors), tuple(aliases))


def field_text(skill: Skill, key: str) -> FieldText | None:
    """Where a top-level field stands in `skill.source`."""
    fm = skill.frontmatter
    spans = fm.spans.get(key) if fm is not None else None
    if fm is None or spans is None:
        return None
    if not _may_share(fm.raw):
        flow = skill.source.startswith(("{", "["), spans.value.start)
        return FieldText(spans.key.start, spans.key.end, spans.value.start, spans.value.end, flow)
    layout = _layout(fm.raw)
    found = layout.fields.get(key) if layout is not None else None
    if found is None:
        return None
    base = fm.span.start
    return FieldText(found.key_start + base, found.key_end + base, found.value_start + base,
                     found.value_end + base, found.flow)


def keeps_anchors(skill: Skill, start: int, end: int) -> bool:
    """Whether rewriting `source[start:end]` leaves every alias naming the anchor it named: no
    anchor defined in the range is used outside it."""
    layout = _shared_layout(skill)
    if layout is None:
        return True
    if not layout:
        return False
    base = skill.frontmatter.span.start if skill.frontmatter is not None else 0
    start, end = start - base, end - base
    inside = {name for name, at, _ in layout.anchors if start <= at < end}
    return not any(name in inside and not start <= at < end for name, at, _ in layout.aliases)


def is_shared(skill: Skill, offset: int) -> bool:
    """Whether the node starting at `offset` is an alias, or has an anchor some alias uses:
    adding to it would change every other use of it too."""
    layout = _shared_layout(skill)
    if layout is None:
        return False
    if not layout:
        return True
    at = offset - (skill.frontmatter.span.start if skill.frontmatter is not None else 0)
    names = {name for name, where, _ in layout.anchors if where == at}
    return any(where == at or name in names for name, where, _ in layout.aliases)


def inline_aliases(skill: Skill, start: int, end: int) -> tuple[TextEdit, ...] | None:
    """Edits that replace each alias, outside `source[start:end]`, of an anchor defined inside
    it with the anchored scalar's own text, so the range can go without leaving an alias
    undefined; None when some alias cannot be replaced so."""
    layout = _shared_layout(skill)
    if layout is None:
        return ()
    if not layout or skill.frontmatter is None:
        return None
    base = skill.frontmatter.span.start
    start, end = start - base, end - base
    edits: list[TextEdit] = []
    for name, at, text in layout.anchors:
        if not start <= at < end:
            continue
        # pyyaml refuses an anchor defined twice, so every alias of this name names this one.
        for alias, alias_start, alias_end in layout.aliases:
            if alias != name or start <= alias_start < end:
                continue
            if text is None:
                return None
            edits.append(TextEdit(base + alias_start, base + alias_end, text))
    return tuple(edits)


def _shared_layout(skill: Skill) -> _Layout | Literal[False] | None:
    """The layout of a frontmatter that may share nodes; None when it cannot, False when it
    could not be read."""
    fm = skill.frontmatter
    if fm is None or not _may_share(fm.raw):
        return None
    return _layout(fm.raw) or False


def replace_value(skill: Skill, key: str, new_scalar: str) -> TextEdit | None:
    """Replace a top-level field's value (one line or a block) with `new_scalar`; None when
    that would leave an alias without its anchor."""
    found = field_text(skill, key)
    if found is None:
        return None
    source = skill.source
    start, end = found.key_end, found.value_end
    if end < start or not keeps_anchors(skill, start, end):
        return None
    trailing = ""
    if end > start and source[end - 1] in "\r\n":
        trailing = "\r\n" if source[end - 2 : end] == "\r\n" else source[end - 1]
    return TextEdit(start, end, f": {new_scalar}{trailing}")


def field_block(skill: Skill, key: str) -> tuple[int, int] | None:
    """The offsets of the whole lines a top-level field takes, newline included."""
    found = field_text(skill, key)
    fm = skill.frontmatter
    if found is None or fm is None or found.value_end < found.key_start:
        return None
    # Only the frontmatter's lines: a field never reaches past them, and the body may be long.
    index = _index_of(skill.source[: fm.span.end])
    key_line = index.position(found.key_start)[0]
    last_line, end_column = index.position(found.value_end)
    if end_column == 1 and last_line > key_line:
        last_line -= 1
    start = index.line_start(key_line)
    end = index.line_start(last_line + 1) if last_line < index.line_count else fm.span.end
    return start, end


@functools.lru_cache(maxsize=8)
def _index_of(text: str) -> LineIndex:
    # The rules ask for several fields of one frontmatter in a row.
    return LineIndex(text)


def _nested_indent(skill: Skill, block: tuple[int, int]) -> str | None:
    """The indent of the first entry of a block mapping whose lines are `block`."""
    lines = skill.source[block[0] : block[1]].splitlines()[1:]
    for line in lines:
        stripped = line.lstrip(" ")
        if stripped and not stripped.startswith("#"):
            indent = line[: len(line) - len(stripped)]
            return indent or None
    return None


def move_under_metadata(skill: Skill, key: str) -> tuple[TextEdit, ...]:
    """Edits that remove `key` from the top level and add it under `metadata:` as a string;
    () when `move_plan` offers none."""
    plan = move_plan(skill, key)
    return plan() if plan is not None else ()


Plan = Callable[[], tuple[TextEdit, ...]]


def move_plan(skill: Skill, key: str) -> Plan | None:
    """Whether `key` can be moved under `metadata:`, decided cheaply, and how to build the edits
    when someone asks for them; None when no move is offered.

    The edits' text (the value dumped as YAML) costs far more than the decision, and a library
    has a field outside the spec in most skills: validating it only decides.

    An alias is moved as the value it names. When the field holds an anchor used elsewhere, each
    use gets the anchored scalar's text instead; nothing is offered when that cannot be done (the
    anchor is on a collection or a multi-line scalar), or `metadata` is shared through an anchor
    or alias."""
    return move_planner(skill)(key)


def move_planner(skill: Skill) -> Callable[[str], Plan | None]:
    """`move_plan` for several fields of one skill: where a moved field goes (`metadata:` as it
    is) is worked out once, on the first field that can move, not once per field."""
    slot: list[_Slot | None] = []

    def plan(key: str) -> Plan | None:
        fm = skill.frontmatter
        found = field_text(skill, key)
        if fm is None or found is None or fm.flow or found.value_end < found.key_start:
            return None  # what `field_block` needs to find the field's lines
        if any(duplicate == key for duplicate, _ in fm.duplicate_keys):
            return None  # removing one of them would leave the other
        inlined: tuple[TextEdit, ...] = ()
        if _may_share(fm.raw):
            block = field_block(skill, key)
            replaced_aliases = inline_aliases(skill, *block) if block is not None else None
            if replaced_aliases is None:
                return None
            inlined = replaced_aliases
        if not slot:
            slot.append(_metadata_slot(skill))
        into = slot[0]
        return into(key, found, inlined) if into is not None else None

    return plan


# Given a field's key, where it stands and the edits that inline its aliases: the plan of its move.
_Slot = Callable[[str, FieldText, tuple[TextEdit, ...]], Plan]


def _metadata_slot(skill: Skill) -> _Slot | None:
    """How a field joins `metadata:`: appended to its mapping, filling an empty `metadata:`, or
    in a new `metadata:` at the end; None when it cannot (`metadata` is shared through an anchor
    or alias, or holds a list or a string)."""
    fm = skill.frontmatter
    assert fm is not None  # `move_planner` looked
    meta = fm.data.get("metadata")
    meta_found = field_text(skill, "metadata")
    if meta_found is not None and is_shared(skill, meta_found.value_start):
        return None
    if isinstance(meta, dict) and meta and meta_found is not None:
        meta_block = field_block(skill, "metadata")
        if meta_block is None or meta_found.flow:
            return None
        indent = _nested_indent(skill, meta_block)
        if indent is None:
            return None
        at = meta_block[1]

        def append(key: str, found: FieldText, inlined: tuple[TextEdit, ...]) -> Plan:
            def edits() -> tuple[TextEdit, ...]:
                newline = newline_of(skill.source)
                insert = TextEdit(at, at, _metadata_entry(skill, key, found, indent, newline))
                return _ordered(_removal(skill, key), insert, *inlined)

            return edits

        return append
    if meta_found is not None:
        if meta not in (None, {}):
            return None  # a list or a string: what it holds would be lost
        replaced = replace_value(skill, "metadata", "")
        if replaced is None:
            return None

        def fill(key: str, found: FieldText, inlined: tuple[TextEdit, ...]) -> Plan:
            def edits() -> tuple[TextEdit, ...]:
                newline = newline_of(skill.source)
                edit = TextEdit(replaced.start, replaced.end,
                                f":{newline}{_metadata_entry(skill, key, found, '  ', newline)}")
                return _ordered(_removal(skill, key), edit, *inlined)

            return edits

        return fill

    def add(key: str, found: FieldText, inlined: tuple[TextEdit, ...]) -> Plan:
        def edits() -> tuple[TextEdit, ...]:
            # A new field goes at the end of the mapping: before a `...` that ends the document.
            document_end = _DOCUMENT_END.search(fm.raw)
            end_of_fm = fm.span.start + document_end.start() if document_end else fm.span.end
            newline = newline_of(skill.source)
            entry = _metadata_entry(skill, key, found, "  ", newline)
            insert = TextEdit(end_of_fm, end_of_fm, f"metadata:{newline}{entry}")
            return _ordered(_removal(skill, key), insert, *inlined)

        return edits

    return add


def _removal(skill: Skill, key: str) -> TextEdit:
    """The edit that removes a field's whole lines; `move_plan` has checked it can."""
    block = field_block(skill, key)
    if block is None:
        raise ValueError(f"`{key}` has no lines of its own to remove")
    return TextEdit(block[0], block[1], "")


def _comments(skill: Skill, key: str) -> tuple[str | None, list[str]]:
    """The comments among a field's lines: the one on the key's own line (None when there is
    none) and the others, in order, each without its `#`. A moved value keeps them."""
    block = field_block(skill, key)
    if block is None:
        return None, []
    text = skill.source[block[0] : block[1]]
    if "#" not in text:
        return None, []
    try:
        covered = [(_at(token.start_mark), _at(token.end_mark)) for token in yaml.scan(text, Loader=_Loader)]
    except yaml.YAMLError:
        return None, []
    first_line_end = len(text.splitlines()[0]) if text else 0
    on_key: str | None = None
    others: list[str] = []
    at = text.find("#")
    while at != -1:
        inside = any(start <= at < end for start, end in covered)
        if not inside and (at == 0 or text[at - 1] in " \t\r\n"):
            end = len(text)
            for stop in ("\r", "\n"):
                found = text.find(stop, at)
                if found != -1:
                    end = min(end, found)
            comment = text[at + 1 : end].strip()
            if at < first_line_end and on_key is None:
                on_key = comment
            else:
                others.append(comment)
            at = text.find("#", end)
            continue
        at = text.find("#", at + 1)
    return on_key, others


def _metadata_entry(skill: Skill, key: str, found: FieldText, indent: str, newline: str) -> str:
    """The lines of `key` as it goes under `metadata:` at `indent`, the comments of its lines
    kept: the one on the key's line stays on it, the others come before it."""
    line = _metadata_line(skill, key, found)
    on_key, others = _comments(skill, key)
    before = "".join(f"{indent}# {comment}{newline}" if comment else f"{indent}#{newline}"
                     for comment in others)
    trailing = f"  # {on_key}" if on_key else ""
    return f"{before}{indent}{line}{trailing}{newline}"


def _metadata_line(skill: Skill, key: str, found: FieldText) -> str:
    """`key: value` as it goes under `metadata:`, the value turned into a string."""
    value = skill.fields.get(key)
    value_text = skill.source[found.value_start : found.value_end].strip()
    if isinstance(value, str):
        item = scalar(value)
    elif value is None or (
        isinstance(value, bool | int | float) and value_text[:1] not in ("&", "*", "!")
    ):
        item = scalar(value_text if value is not None else "")
    else:
        item = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**9)
        item = scalar(item.removesuffix("\n...\n").strip())
    return f"{scalar(key)}: {item}"


def _ordered(*edits: TextEdit) -> tuple[TextEdit, ...]:
    return tuple(sorted(edits, key=lambda edit: (edit.start, edit.end)))


def apply_edits(text: str, edits: tuple[TextEdit, ...]) -> str:
    """Apply non-overlapping edits; later ones first so earlier offsets stay right."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.new_text + text[edit.end :]
    return text

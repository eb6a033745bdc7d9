"""Loading a frontmatter's YAML with pyyaml's C loader, as YAML 1.2 reads it, quickly.

libyaml parses; the values are then built here for the shapes frontmatter nearly always has
(strings, lists, mappings with string keys), which pyyaml's Python constructor otherwise spends
most of a parse on, and scalars that can only be strings skip its resolver's patterns. Anything
else goes to pyyaml's own constructor, so the values are always those of `yaml.safe_load`
(`tests/skills/test_yaml_build.py` holds it to that), but for the two YAML 1.1 readings fixed here.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

try:
    _Base: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - pyyaml built without libyaml
    _Base = yaml.SafeLoader

# The first characters of plain scalars that some implicit tag (bool, int, float, null,
# timestamp, merge, value) could claim; every other plain scalar is a string.
_RESOLVED_FIRSTS = frozenset(key for key in _Base.yaml_implicit_resolvers if key)
_STR_TAG = "tag:yaml.org,2002:str"


class FrontmatterLoader(_Base):  # type: ignore[misc, valid-type]
    """The safe loader with a shortcut through tag resolution for scalars that can only be
    strings, which pyyaml otherwise matches against its resolvers' patterns one by one."""

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and (
            not implicit[0] or (value and value[0] not in _RESOLVED_FIRSTS)
        ):
            return _STR_TAG
        return super().resolve(kind, value, implicit)


# libyaml reads NEL, LS and PS as line breaks (YAML 1.1); YAML 1.2 reads them as text. They are
# swapped for private-use stand-ins of the same length before parsing and swapped back after.
_YAML11_BREAKS = {"\x85": "\ue085", "\u2028": "\ue028", "\u2029": "\ue029"}
_TO_STANDIN = str.maketrans(_YAML11_BREAKS)
_FROM_STANDIN = str.maketrans({v: k for k, v in _YAML11_BREAKS.items()})


def _restore_breaks(value: Any, seen: set[int] | None = None) -> Any:
    seen = set() if seen is None else seen
    if isinstance(value, str):
        return value.translate(_FROM_STANDIN)
    if id(value) in seen:
        return value
    seen.add(id(value))
    if isinstance(value, dict):
        restored = {_restore_breaks(k, seen): _restore_breaks(v, seen) for k, v in value.items()}
        value.clear()
        value.update(restored)
    elif isinstance(value, list):
        value[:] = [_restore_breaks(item, seen) for item in value]
    return value


_BAD_BLOCK_HEADER = re.compile(r"[|>][1-9+-]{0,2}#")


def _check_block_headers(root: yaml.Node, raw: str) -> None:
    """libyaml lets a comment touch a block scalar's header (`|#x`); YAML forbids it."""
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.style in ("|", ">") and _BAD_BLOCK_HEADER.match(raw, node.start_mark.index):
                raise yaml.MarkedYAMLError(
                    problem="a comment after a block scalar's `|` or `>` needs a space before it",
                    problem_mark=node.start_mark,
                )
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))


_SEQ_TAG = "tag:yaml.org,2002:seq"
_MAP_TAG = "tag:yaml.org,2002:map"


class _Shared(Exception):
    """A node met twice (an alias): pyyaml's own constructor keeps such values shared."""


def construct(loader: yaml.SafeLoader, root: yaml.Node) -> Any:
    """What `loader.construct_document(root)` returns, built directly for the shapes frontmatter
    nearly always has (strings, lists, mappings with string keys), which pyyaml's constructor
    spends most of a parse on. Any other node (another tag, a merge key) goes to pyyaml's
    constructor, and a document with aliases goes to it whole."""
    try:
        return _build(loader, root, set())
    except _Shared:
        return loader.construct_document(root)


def _build(loader: yaml.SafeLoader, node: yaml.Node, seen: set[int]) -> Any:
    tag = node.tag
    if tag == _STR_TAG and isinstance(node, yaml.ScalarNode):
        return node.value
    if id(node) in seen:
        raise _Shared
    seen.add(id(node))
    if tag == _MAP_TAG and isinstance(node, yaml.MappingNode):
        pairs = node.value
        if all(key.tag == _STR_TAG and isinstance(key, yaml.ScalarNode) for key, _ in pairs):
            return {key.value: _build(loader, value, seen) for key, value in pairs}
    elif tag == _SEQ_TAG and isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, seen) for item in node.value]
    return loader.construct_object(node, deep=True)


MAX_NESTING = 64


class TooDeep(yaml.MarkedYAMLError):
    """Collections nested deeper than `MAX_NESTING`; the mark is where the limit is passed."""


def check_nesting(text: str) -> bool:
    """Raise `TooDeep` when collections nest more than `MAX_NESTING` levels deep in the text;
    return whether they could nest that deep through aliases.

    libyaml's composer recurses once per level in C, so some tens of thousands of levels (a
    60 KB line of `[`) overflow the stack and kill the process; its scanner also slows down
    with the square of the depth. Every collection is opened by one of `[{-?:`, so a text with
    fewer of them than the limit cannot nest that deep, which is nearly every frontmatter and
    costs five scans of it. Otherwise libyaml's parser, which keeps its state on the heap, reads
    the events and stops at the first level past the limit, long before its scanner slows."""
    if sum(map(text.count, "[{-?:")) <= MAX_NESTING:
        return False
    depth = 0
    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_NESTING:
                raise _too_deep(event.start_mark)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return "*" in text


def _too_deep(mark: Any) -> TooDeep:
    index, line, column = (mark.index, mark.line, mark.column) if mark is not None else (0, 0, 0)
    return TooDeep(
        problem=f"collections nest more than {MAX_NESTING} levels deep here",
        problem_mark=yaml.Mark("", index, line, column, None, 0),
    )


def check_alias_nesting(root: yaml.Node) -> None:
    """Raise `TooDeep` when the value nests more than `MAX_NESTING` levels deep through aliases
    (`a: &a [x]`, `b: &b [*a]`, ...: each line one level deeper), which the text's own nesting
    does not show and which the code reading the value would recurse through. The nodes are
    walked without recursion, each once; an alias back into its own collection adds nothing."""
    below: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            continue
        key = id(node)
        children = (
            node.value if isinstance(node, yaml.SequenceNode)
            else [part for pair in node.value for part in pair]
        )
        if finished:
            on_path.discard(key)
            below[key] = 1 + max((below.get(id(child), 0) for child in children), default=0)
            if below[key] > MAX_NESTING:
                raise _too_deep(node.start_mark)
        elif key not in below and key not in on_path:
            on_path.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in children)


def load_yaml(raw: str) -> tuple[Any, yaml.Node | None]:
    """The value of a YAML document and its root node (None for an empty one). Raises
    `yaml.YAMLError` (a `MarkedYAMLError` where the place is known) on invalid YAML, and
    `TooDeep` on YAML nested too deep to load safely."""
    swapped = (
        not raw.isascii()
        and any(c in raw for c in _YAML11_BREAKS)
        and not any(c in raw for c in _YAML11_BREAKS.values())
    )
    text = raw.translate(_TO_STANDIN) if swapped else raw
    aliases_may_nest = check_nesting(text)
    loader = FrontmatterLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None and aliases_may_nest:
            check_alias_nesting(node)
        if node is not None and "#" in raw and ("|" in raw or ">" in raw):
            _check_block_headers(node, raw)
        data = construct(loader, node) if node is not None else None
    finally:
        loader.dispose()
    return (_restore_breaks(data) if swapped else data), node

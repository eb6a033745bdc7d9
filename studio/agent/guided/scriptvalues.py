"""The values a Python script itself accepts, read from its source with `ast`, never run: the
`choices=` of an `argparse` argument, and the keys of a dict of known values
(`PALETTE = {"harbour-blue": ..., ...}`). A skill that documents its values nowhere else still
has them here, and a model held to them does not guess ("tomato" for `ripe-tomato`).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Sequence

from studio.agent.guided.arguments import PLACEHOLDER, Usage

_MIN_VALUES = 2
_MAX_VALUES = 80
_OPEN_KINDS = frozenset({
    "value", "n", "num", "number", "count", "amount", "quantity", "limit", "digits", "top", "max",
    "min", "seconds", "width", "height", "date", "day", "since", "until", "file", "path", "dir",
    "text", "message", "phrase", "title", "url", "json", "csv", "year", "km", "minutes", "score",
})
"""Words naming a placeholder whose values are open (a number, a date, a path, free text): a dict
of the script is not their list."""


def script_values(source: str, usage: Usage) -> dict[str, tuple[str, ...]]:
    """The values the script `source` accepts for the placeholders of `usage`: an option's
    `choices` for the placeholder after that option in the usage (`--to BASE`), a positional's
    for the placeholder of its name or metavar; then, for placeholders left without (but those
    of an open kind), the keys of the script's one dict of string keys. Empty for a script that
    does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    after = after_option(usage)
    found: dict[str, tuple[str, ...]] = {}
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "add_argument"):
            continue
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        choices = _strings(keywords.get("choices"))
        if choices is None:
            continue
        names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        metavar = keywords.get("metavar")
        labels = {n.lstrip("-").upper().replace("-", "_") for n in names}
        if isinstance(metavar, ast.Constant) and isinstance(metavar.value, str):
            labels.add(metavar.value)
        for name in usage.placeholders:
            if any(after.get(n) == name for n in names) or name in labels:
                found.setdefault(name, choices)
    keys = _dict_keys(tree)
    if keys is not None:
        for name in usage.placeholders:
            # A format (`HH:MM`) or a word of an open kind (a number, a path) takes any value.
            if name not in found and name.isidentifier() and \
                    not set(name.lower().split("_")) & _OPEN_KINDS:
                found[name] = keys
    return found


def after_option(usage: Usage) -> dict[str, str]:
    """Each option of the usage and the placeholder after it (`--to BASE`: {"--to": "BASE"})."""
    words: list[str] = [*usage.required, *(w for group in usage.optional for w in group)]
    found = {}
    for word, following in itertools.pairwise(words):
        if word.startswith("-") and PLACEHOLDER.match(following):
            found[word.split("=", 1)[0]] = following
    for word in words:
        option, _, value = word.partition("=")
        if value and PLACEHOLDER.match(value):
            found[option] = value
    return found


def _strings(node: ast.expr | None) -> tuple[str, ...] | None:
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return None
    values = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if len(values) != len(node.elts) or not _MIN_VALUES <= len(values) <= _MAX_VALUES:
        return None
    return tuple(dict.fromkeys(values))


def _dict_keys(tree: ast.Module) -> tuple[str, ...] | None:
    """The keys of the script's one module-level dict whose keys are all strings and that it
    refuses a value by (`if city not in OFFSETS: sys.exit(...)`); None when it has none, or
    several (which one a placeholder takes is then not known). A table it only looks letters up
    in (`if c in T`) lists no values a user gives."""
    refusing = {node.comparators[0].id for node in ast.walk(tree)
                if isinstance(node, ast.Compare) and len(node.ops) == 1
                and isinstance(node.ops[0], ast.NotIn) and isinstance(node.comparators[0], ast.Name)}
    found: list[Sequence[str]] = []
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, ast.AnnAssign) else []
        if not any(isinstance(t, ast.Name) and t.id in refusing for t in targets):
            continue
        if not isinstance(value, ast.Dict) or not value.keys:
            continue
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if len(keys) == len(value.keys) and _MIN_VALUES <= len(keys) <= _MAX_VALUES:
            found.append(keys)
    return tuple(dict.fromkeys(found[0])) if len(found) == 1 else None

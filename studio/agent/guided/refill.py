"""The repair of a guided run whose fill would allow only the failed call again.

After a failed run the fill may pin every placeholder to the value it had (the message named
them plainly), so the only call it allows is the one that failed, which gives the same output.
The repair step still offers other calls: each placeholder also takes the values the skill lists
for it and the values the other placeholders had, when of the same shape (two figures swapped:
`PART WHOLE` given as the message wrote them); a call that repeats the failed one, or gives two
placeholders the same value, is not among them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence

from studio.agent.guided.arguments import Usage
from studio.agent.guided.fill import SCRIPT_KEY, chosen, compose, named_values
from studio.agent.guided.values import Described
from studio.agent.toolbook import RUN
from studio.llm import ToolCall, ToolSpec

_LIMIT = 64
_FIGURE = re.compile(r"-?\d+(?:[.,]\d+)*\Z")


def other_commands(spec: ToolSpec, usage: Usage, described: Sequence[Described], failed: dict[str, str],
                   tried: Collection[str], request: str = "", limit: int = _LIMIT) -> list[str]:
    """The commands a repair may run in place of the failed one: the filled `spec`'s values for
    each placeholder, the values the skill lists for it (`described`; those the user's `request`
    names, when it names any but the failed one), and the values the other
    placeholders had in the `failed` call when of the same shape; none of those in `tried`, none
    giving two placeholders one value. Those that change a placeholder the fewest times come
    first. Empty when a placeholder of `spec` is free (the fill allows other calls already)."""
    properties = spec.parameters["properties"]
    by_name = {d.name: d for d in described}
    enums: dict[str, list[str]] = {}
    for name in usage.placeholders:
        enum = properties.get(name, {}).get("enum")
        if enum is None:
            return []
        item = by_name.get(name, Described(name, "", ()))
        values = [chosen(item, str(value)) for value in enum]
        mine = failed.get(name, "")
        # Of the other values the skill lists, those the message names, as a fill keeps them
        # ("largest area" names `area_km2` once `city` failed).
        others = [value for value in item.values if value != mine]
        values += [value for value in named_values(others, request) or others if value not in values]
        values += [value for other, value in failed.items() if other != name and value
                   and value not in values and mine and _shape(value) == _shape(mine)]
        enums[name] = values
    names = list(enums)
    if not names:
        return []
    found: list[tuple[int, str]] = []
    for combination in itertools.product(*(enums[name] for name in names)):
        given = [value for value in combination if value]
        if len(given) != len(set(given)):
            continue
        arguments = {"skill": properties["skill"]["enum"][0], SCRIPT_KEY: properties[SCRIPT_KEY]["enum"][0],
                     **dict(zip(names, combination, strict=True))}
        command = str(compose(ToolCall("", RUN, arguments), usage).arguments["command"])
        if command in tried:
            continue
        changed = sum(value != failed.get(name, "") for name, value in zip(names, combination, strict=True))
        found.append((changed, command))
        if len(found) >= limit * 4:
            break
    return list(dict.fromkeys(command for _, command in sorted(found, key=lambda pair: pair[0])))[:limit]


def _shape(value: str) -> str:
    """A figure, a path, or a word: a value is swapped only with one of its shape."""
    if _FIGURE.match(value):
        return "figure"
    return "path" if "/" in value or re.search(r"\.\w{1,5}\Z", value) else "word"

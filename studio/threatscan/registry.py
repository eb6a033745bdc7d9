"""The rules, as one registry: each rule a record (code, name, what it reads, what it catches)
read by the scanner, the SARIF report's rule list and the docs test. A rule is a function of one
`Source` (a file's text and its kind) that yields findings; adding one is adding a function with
`@rule(...)` in a module the scanner imports (see `scanner.RULE_MODULES`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from studio.threatscan.findings import Finding
from studio.threatscan.source import Source

Check = Callable[[Source], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    """A rule: `kinds` are the file kinds it reads (see `source.py`), `summary` one sentence
    for the SARIF report and the docs."""

    name: str
    kinds: frozenset[str]
    summary: str
    check: Check = field(compare=False)


RULES: dict[str, Rule] = {}


def rule(name: str, kinds: Iterable[str], summary: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        if name in RULES:
            raise ValueError(f"two threat rules are named {name!r}")
        RULES[name] = Rule(name, frozenset(kinds), summary, check)
        return check

    return register


def rules_for(kind: str) -> list[Rule]:
    return [entry for entry in RULES.values() if kind in entry.kinds]

"""The skill listing against a client's budget: how much of the context window its names and
descriptions may take, and which skills fall off the end.

- Claude Code keeps every name and drops descriptions past the budget, keeping those of the
  skills used most; the studio does not know what you use, so it drops from the end of the
  alphabetical listing and says so.
- Codex lists project skills before the user's, each by name, and leaves out every line that
  does not fit (it keeps trying the shorter ones after).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.skills.catalog.entry import Entry
from studio.skills.catalog.rules import UNKNOWN, ClientRules

# Claude's context window when none is given (tokens), and the characters a token stands for in
# its budget (1% of 200,000 tokens is the 8,000 characters its settings fall back to).
CLAUDE_WINDOW = 200_000
CHARS_PER_TOKEN = 4


@dataclass(slots=True)
class ListingBudget:
    """The listing's size against the budget.

    Attributes:
        known: whether any source gives the client's budget.
        unit: `characters` or `tokens`.
        limit: the budget; used: what the listing takes (after what fell off).
        basis: how the limit was worked out, for the user.
        over: the skills that fell off the end (their descriptions, or their whole line).
    """

    known: bool
    source: str
    unit: str = ""
    limit: int = 0
    used: int = 0
    wanted: int = 0
    basis: str = ""
    over: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"known": self.known, "unit": self.unit, "limit": self.limit, "used": self.used,
                "wanted": self.wanted, "basis": self.basis, "over": self.over,
                "source": self.source}


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) and number > 0 else None


def _claude(rules: ClientRules, entries: Sequence[Entry], env: Mapping[str, str],
            values: Mapping[str, Any], window: int | None) -> ListingBudget:
    assert rules.budget is not None
    budget = rules.budget
    pinned = _number(env.get(budget.pin_env, ""))
    if pinned is not None:
        limit, basis = int(pinned), f"{budget.pin_env}={int(pinned)}"
    else:
        fraction = _number(values.get(budget.setting))
        fraction = fraction if fraction is not None and fraction <= 1 else budget.fraction
        tokens = window or CLAUDE_WINDOW
        limit = int(fraction * tokens * CHARS_PER_TOKEN)
        basis = (f"{fraction:.0%} of a {tokens:,}-token context window"
                 f"{'' if window else ' (assumed)'}, "
                 f"{CHARS_PER_TOKEN} characters a token")
    report = ListingBudget(True, budget.source, "characters", limit, basis=basis)
    for entry in sorted(entries, key=lambda e: e.name):
        line = budget.line.format(name=entry.name, description=entry.description_shown)
        report.wanted += len(line) + 1
        if report.used + len(line) + 1 <= limit or not entry.description_shown:
            report.used += len(line) + 1
            continue
        entry.description_shown = ""
        entry.why = "; ".join(filter(None, [entry.why, "description dropped: the listing is over "
                                            "Claude Code's budget (the name stays)"]))
        report.over.append(entry.name)
        report.used += len(budget.line.format(name=entry.name, description="")) + 1
    return report


def _codex(rules: ClientRules, entries: Sequence[Entry], window: int | None) -> ListingBudget:
    assert rules.budget is not None
    budget = rules.budget
    if window:
        limit, unit = max(1, window * 2 // 100), "tokens"
        basis = f"2% of a {window:,}-token context window, about 4 bytes a token"
    else:
        limit, unit = budget.fallback_chars, "characters"
        basis = f"{limit:,} characters: Codex's budget when the model's window is unknown"
    report = ListingBudget(True, budget.source, unit, limit, basis=basis)
    ordered = sorted(entries, key=lambda e: (e.scope != "project", e.name, str(e.path)))
    for entry in ordered:
        line = budget.line.format(name=entry.name, description=entry.description_shown,
                                  path=entry.path.as_posix()) + "\n"
        cost = math.ceil(len(line.encode("utf-8")) / 4) if unit == "tokens" else len(line)
        report.wanted += cost
        if report.used + cost <= limit:
            report.used += cost
            continue
        entry.state = "not-loaded"
        entry.why = ("left out of the listing: over Codex's skill metadata budget; mention "
                     "the skill by name to use it")
        entry.description_shown = ""
        report.over.append(entry.name)
    return report


def apply_budget(rules: ClientRules, entries: Sequence[Entry], env: Mapping[str, str],
                 values: Mapping[str, Any], window: int | None) -> ListingBudget:
    """Fit the loaded `entries` into the client's listing; the entries that fall off are
    changed in place (Claude Code: description dropped; Codex: left out)."""
    if rules.budget is None:
        return ListingBudget(False, rules.sources.get("budget", UNKNOWN))
    if rules.key == "codex":
        return _codex(rules, entries, window)
    return _claude(rules, entries, env, values, window)


__all__ = ["CLAUDE_WINDOW", "ListingBudget", "apply_budget"]

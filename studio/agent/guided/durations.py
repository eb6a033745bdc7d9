"""Durations in a user's message, written as a skill writes them (`1h20m`, `45m`, `30s`).

The user writes "1 hour 20 minutes"; a script that sums durations takes `1h20m`. A small model
held to the message's words gives it "1" and "hour" as two arguments: the durations are written
here in the compact form the skill's own examples show, and the model only chooses among them.
"""

from __future__ import annotations

import re

_UNITS = {"h": 3600, "m": 60, "s": 1}
_WORD = {"hour": "h", "hours": "h", "hr": "h", "hrs": "h", "h": "h", "minute": "m", "minutes": "m",
         "min": "m", "mins": "m", "second": "s", "seconds": "s", "sec": "s", "secs": "s"}
_PART = re.compile(r"(\d+)\s*(hours?|hrs?|h|minutes?|mins?|seconds?|secs?)\b", re.IGNORECASE)
_JOIN = re.compile(r"\s*(?:,?\s*and\s+|\s+)\Z", re.IGNORECASE)
_COMPACT = re.compile(r"(?<![\w.])(?=\d)(?:\d+h)?(?:\d+m)?(?:\d+s)?(?![\w.])")


def compact_style(text: str) -> bool:
    """Whether `text` (a skill's body) writes durations compactly: two or more of `1h20m`, `45m`,
    `30s`, one of them at least with two parts or in hours."""
    found = [m.group(0) for m in _COMPACT.finditer(text) if m.group(0)]
    return len(found) >= 2 and any(len(re.findall(r"[hms]", d)) > 1 or "h" in d for d in found)


def compact_durations(request: str) -> list[str]:
    """The durations `request` writes in words ("1 hour 20 minutes", "45 minutes and 30
    seconds"), each written compactly (`1h20m`, `45m30s`), in order."""
    found: list[str] = []
    parts: list[tuple[str, int]] = []
    end = -1
    for match in _PART.finditer(request):
        unit = _WORD[match.group(2).lower()]
        joined = end >= 0 and _JOIN.fullmatch(request[end:match.start()] + " ") is not None
        if parts and (not joined or _UNITS[unit] >= _UNITS[parts[-1][0]]):
            found.append(_written(parts))
            parts = []
        parts.append((unit, int(match.group(1))))
        end = match.end()
    if parts:
        found.append(_written(parts))
    return found


def _written(parts: list[tuple[str, int]]) -> str:
    return "".join(f"{count}{unit}" for unit, count in parts)

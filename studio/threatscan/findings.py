"""A threat finding and the severities it is ranked by.

A finding says where to look (file, line, column), how bad it would be if it is what it looks like
(`severity`), how sure the rule is that it is (`confidence`, 0 to 1), and the text that made it fire
(`evidence`). A named tuple: a corpus of thousands of skills makes a few of them per skill."""

from __future__ import annotations

from typing import Any, NamedTuple

# Lowest first; `--fail-on` and the corpus figures compare by position.
LEVELS = ("info", "low", "medium", "high", "critical")
_RANK = {level: index for index, level in enumerate(LEVELS)}


def rank(level: str) -> int:
    """The position of `level` in `LEVELS`; a ValueError names the levels when it is none."""
    try:
        return _RANK[level]
    except KeyError:
        raise ValueError(f"unknown severity {level!r}: use one of {', '.join(LEVELS)}") from None


class Finding(NamedTuple):
    code: str
    severity: str
    confidence: float
    file: str
    line: int
    column: int
    message: str
    evidence: str = ""

    def at_least(self, level: str) -> bool:
        return _RANK[self.severity] >= _RANK[level]

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "confidence": round(self.confidence, 2),
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "evidence": self.evidence,
        }


def excerpt(text: str, limit: int = 80) -> str:
    """`text` on one line, cut to `limit` characters: evidence a terminal shows as it is."""
    shown = " ".join(text.split())
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."

"""The `<available_skills>` catalog an agent's system prompt carries: names, descriptions, places."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from studio.skills.summary import SkillSummary


@dataclass(frozen=True, slots=True)
class Catalog:
    xml: str
    included: tuple[SkillSummary, ...]
    skipped: tuple[SkillSummary, ...]


def build_catalog(summaries: Iterable[SkillSummary]) -> Catalog:
    """The catalog of the loadable skills; those a client would not load are listed as skipped.

    Of several skills with one name only the first is included, as clients keep the first found.
    """
    included: list[SkillSummary] = []
    skipped: list[SkillSummary] = []
    names: set[str] = set()
    for summary in summaries:
        if not summary.loadable or not summary.name or summary.name in names:
            skipped.append(summary)
            continue
        names.add(summary.name)
        included.append(summary)
    lines = ["<available_skills>"]
    for summary in included:
        lines += [
            "  <skill>",
            f"    <name>{escape(summary.name or '')}</name>",
            f"    <description>{escape((summary.description or '').strip())}</description>",
            f"    <location>{escape(str(summary.skill_file))}</location>",
            "  </skill>",
        ]
    lines.append("</available_skills>")
    return Catalog("\n".join(lines), tuple(included), tuple(skipped))

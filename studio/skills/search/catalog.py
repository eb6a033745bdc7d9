"""The `<available_skills>` catalog an agent's system prompt carries: names, descriptions, places.

With a token budget (a small model's context), the catalog keeps the skills most relevant to the
conversation, scored by the terms they share with it, and says which it left out.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar
from xml.sax.saxutils import escape

_OPEN = "<available_skills>"
_CLOSE = "</available_skills>"
_WORD = re.compile(r"[^\W_]+")
# Words that say nothing about which skill fits.
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "for",
        "from",
        "how",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "please",
        "that",
        "the",
        "this",
        "to",
        "use",
        "using",
        "want",
        "what",
        "when",
        "which",
        "with",
        "you",
        "your",
    ]
)


class Listed(Protocol):
    """What the catalog reads of a skill: a `SkillSummary`, or a `studio.skills.scan.headers`
    `SkillHeader` when nothing else about the skill is needed."""

    @property
    def name(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...
    @property
    def skill_file(self) -> Path | str: ...
    @property
    def loadable(self) -> bool: ...


S = TypeVar("S", bound=Listed)


@dataclass(frozen=True, slots=True)
class Catalog(Generic[S]):
    """The catalog's XML and the skills in it.

    Attributes:
        skipped: skills a client would not load (broken, nameless, a second of one name).
        left_out: loadable skills that did not fit the token budget, most relevant first.
    """

    xml: str
    included: tuple[S, ...]
    skipped: tuple[S, ...]
    left_out: tuple[S, ...] = ()


def estimate_tokens(text: str) -> int:
    """A cheap estimate, on the high side, of the tokens `text` costs a model: 3.5 characters a
    token for ASCII (tokenizers do better on English), one per character for the rest (CJK and
    symbols take a token or more each)."""
    wide = sum(1 for char in text if ord(char) > 127)
    return math.ceil((len(text) - wide) / 3.5) + wide


def _entry(summary: Listed, root: Path | None = None) -> str:
    return "\n".join([
        "  <skill>",
        f"    <name>{escape(summary.name or '')}</name>",
        f"    <description>{escape((summary.description or '').strip())}</description>",
        f"    <location>{escape(_location(summary.skill_file, root))}</location>",
        "  </skill>",
    ])  # fmt: skip


def _location(skill_file: Path | str, root: Path | None) -> str:
    """Where the skill's SKILL.md is: relative to `root` (in POSIX form, the same on every
    machine) when it lies inside it, else as given."""
    if root is not None:
        try:
            return Path(skill_file).relative_to(root).as_posix()
        except ValueError:
            pass
    return str(skill_file)


def terms(text: str) -> list[str]:
    """Lower-case word stems: plural s dropped, cut at 6 letters, so "conversions" and "convert"
    meet."""
    stems = []
    for word in _WORD.findall(text.lower()):
        if len(word) < 2 or word in STOP_WORDS:
            continue
        if len(word) > 3 and word.endswith("s"):
            word = word[:-1]
        stems.append(word[:6])
    return stems


class Described(Protocol):
    """What the term score reads of a skill."""

    @property
    def name(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...


def relevance(skills: Sequence[Described], query: str) -> list[float]:
    """Each skill's relevance to `query`: terms shared with the skill's name count three times
    those shared with its description, each weighted by how rare it is among the skills; 0 for a
    skill sharing nothing."""
    wanted = set(terms(query))
    if not wanted:
        return [0.0] * len(skills)
    names = [set(terms((s.name or "").replace("-", " "))) for s in skills]
    descriptions = [set(terms(s.description or "")) for s in skills]
    frequency: Counter[str] = Counter()
    for name_terms, description_terms in zip(names, descriptions, strict=True):
        frequency.update((name_terms | description_terms) & wanted)
    weight = {term: math.log((len(skills) + 1) / (count + 0.5)) for term, count in frequency.items()}
    return [
        sum(weight[t] * 3 for t in wanted & name_terms) + sum(weight[t] for t in wanted & description_terms)
        for name_terms, description_terms in zip(names, descriptions, strict=True)
    ]


def shared_terms(skill: Described, query: str) -> tuple[int, int]:
    """How many of `query`'s terms the skill's name shares, and how many its description does:
    unlike `relevance`, the same whatever the other skills are."""
    wanted = set(terms(query))
    return (len(wanted & set(terms((skill.name or "").replace("-", " ")))),
            len(wanted & set(terms(skill.description or ""))))


def rank_skills(summaries: Sequence[S], query: str) -> list[S]:
    """`summaries` by `relevance` to `query`, most relevant first. Ties (and skills sharing
    nothing) keep their order."""
    scores = relevance(summaries, query)
    order = sorted(range(len(summaries)), key=lambda index: (-scores[index], index))
    return [summaries[index] for index in order]


def build_catalog(
    summaries: Iterable[S],
    *,
    budget: int | None = None,
    query: str = "",
    keep: Collection[str] = (),
    root: Path | None = None,
) -> Catalog[S]:
    """The catalog of the loadable skills; those a client would not load are listed as skipped.
    With a `root`, the locations of the skills inside it are written relative to it (a file
    checked in with a project, such as its AGENTS.md).

    Of several skills with one name only the first is included, as clients keep the first found.
    With a `budget` (tokens, by `estimate_tokens`), the skills named in `keep` (pinned, being
    tried) come first whatever they cost, then the others most relevant to `query` first while
    they fit; the rest are `left_out`.
    """
    included: list[S] = []
    skipped: list[S] = []
    names: set[str] = set()
    for summary in summaries:
        if not summary.loadable or not summary.name or summary.name in names:
            skipped.append(summary)
            continue
        names.add(summary.name)
        included.append(summary)
    left_out: list[S] = []
    if budget is not None:
        included, left_out = _fit(included, budget, query, keep, root)
    xml = "\n".join([_OPEN, *(_entry(summary, root) for summary in included), _CLOSE])
    return Catalog(xml, tuple(included), tuple(skipped), tuple(left_out))


def _fit(
    summaries: list[S], budget: int, query: str, keep: Collection[str], root: Path | None
) -> tuple[list[S], list[S]]:
    kept = [summary for summary in summaries if summary.name in keep]
    others = rank_skills([summary for summary in summaries if summary.name not in keep], query)
    used = estimate_tokens(_OPEN + "\n" + _CLOSE) + sum(estimate_tokens(_entry(s, root)) + 1 for s in kept)
    chosen, left_out = list(kept), []
    for summary in others:
        cost = estimate_tokens(_entry(summary, root)) + 1
        if used + cost <= budget:
            chosen.append(summary)
            used += cost
        else:
            left_out.append(summary)
    return chosen, left_out

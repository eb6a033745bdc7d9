"""Dates in a user's message, as a script takes them, and which date goes to which placeholder.

The user writes "3 March 1990"; a script takes `1990-03-03` (or `03/03/1990`, as its SKILL.md
says). A small model held to a date's pattern mistypes the year, and given the message's words it
picks "1990" or "3": the dates are written here in the format the skill documents, and a model
only chooses among them. Two date placeholders (`BIRTH ON`) take the dates the sentence defining
each points at ("BIRTH the date of birth" and "born on 3 March 1990"), when the words say so.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from studio.skills.search import catalog

ISO = "YYYY-MM-DD"
_MONTHS = {name: number for number, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
     ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
     ("oct", "october"), ("nov", "november"), ("dec", "december")], start=1) for name in names}
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]+)\.?,?\s+(\d{4})\b")
_MONTH_DAY_YEAR = re.compile(r"\b([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_ISO_DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")
_FORMAT = re.compile(r"(?<![A-Za-z])(?:YYYY|MM|DD)(?:[-/.]?(?:YYYY|MM|DD)){2}(?![A-Za-z])")
_ISO_WORDS = re.compile(r"\bISO(?:[- ]?8601)?(?:\s+(?:date|format))?\b")
_DATE_WORDS = frozenset({"date", "dates", "day"})
"""Words by which a placeholder's own clause says it is a date ("ON the day to measure on")."""
_CONTEXT = 3
"""How many words before a date say what it is ("someone born on 3 March 1990")."""


@dataclass(frozen=True, slots=True)
class Written:
    """A date the message writes, and where (its first character)."""

    at: int
    year: int
    month: int
    day: int


def written_dates(request: str) -> list[Written]:
    """The dates `request` writes in words ("29 February 2024", "July 20, 1969") or as ISO
    (`2024-02-29`), in the order it writes them, each once."""
    found: dict[tuple[int, int, int], int] = {}
    matches = [(m.start(), m.group(3), m.group(2), m.group(1)) for m in _DAY_MONTH_YEAR.finditer(request)]
    matches += [(m.start(), m.group(3), m.group(1), m.group(2)) for m in _MONTH_DAY_YEAR.finditer(request)]
    for at, year, month, day in sorted(matches):
        number = _MONTHS.get(month.lower())
        if number is not None and 1 <= int(day) <= 31:
            found.setdefault((int(year), number, int(day)), at)
    for match in _ISO_DATE.finditer(request):
        year, month, day = map(int, match.groups())
        if 1 <= month <= 12 and 1 <= day <= 31:
            found.setdefault((year, month, day), match.start())
    return sorted((Written(at, *date) for date, at in found.items()), key=lambda w: w.at)


def iso_dates(request: str) -> list[str]:
    """The dates the message writes, as most scripts take them (YYYY-MM-DD)."""
    return [formatted(date, ISO) for date in written_dates(request)]


def date_format(text: str) -> str | None:
    """The date format `text` documents (`YYYY-MM-DD`, `DD/MM/YYYY`; "ISO 8601" is YYYY-MM-DD),
    or None."""
    match = _FORMAT.search(text)
    if match and len({part for part in re.findall(r"YYYY|MM|DD", match.group())}) == 3:
        return match.group()
    return ISO if _ISO_WORDS.search(text) else None


def formatted(date: Written, format_: str) -> str:
    """`date` written in `format_` (`DD/MM/YYYY` gives `03/03/1990`)."""
    return (format_.replace("YYYY", f"{date.year:04d}").replace("MM", f"{date.month:02d}")
            .replace("DD", f"{date.day:02d}"))


def is_date(name: str, clause: str, said: str) -> str | None:
    """The format of a placeholder that takes a date, else None: one named as a format
    (`YYYY-MM-DD`), or whose clause of the sentence defining it documents a format or, when
    the sentence does, says it is a date ("both dates as YYYY-MM-DD: BIRTH the date of birth")."""
    if (found := date_format(name)) is not None:
        return found
    if (found := date_format(clause)) is not None:
        return found
    words = set(re.findall(r"[a-z]+", clause.lower()))
    return date_format(said) if words & _DATE_WORDS else None


def clause_of(said: str, name: str, others: Sequence[str]) -> str:
    """What `said` says of `name`: from its mention up to the next placeholder's."""
    match = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", said)
    if match is None:
        return ""
    rest = said[match.end():]
    names = [re.escape(other) for other in others if other != name]
    if names:
        rest = re.split(rf"(?<![A-Za-z0-9_])(?:{'|'.join(names)})(?![A-Za-z0-9_])", rest, maxsplit=1)[0]
    return rest


def paired(clauses: Mapping[str, str], dates: Sequence[Written], request: str) -> dict[str, Written]:
    """Which of `dates` each date placeholder takes (its name and clause in `clauses`) when as
    many dates as placeholders are written and the words before each date match one clause
    better than any other order does ("born on" for "BIRTH the date of birth"); else empty."""
    if len(clauses) != len(dates) or len(dates) < 2:
        return {}
    words = {name: set(_terms(f"{name.replace('_', ' ')} {clause}")) for name, clause in clauses.items()}
    # A word every clause has ("date") says nothing of which is which.
    shared = set.intersection(*words.values())
    words = {name: terms - shared - _DATE_WORDS for name, terms in words.items()}
    contexts = []
    for index, date in enumerate(dates):
        since = dates[index - 1].at if index else 0
        before = re.sub(r"\d{4}-\d{2}-\d{2}|\d+", " ", request[since:date.at])
        contexts.append(_terms(before)[-_CONTEXT:])
    names = list(clauses)
    scores = {}
    for order in itertools.permutations(range(len(dates))):
        scores[order] = sum(_alike(word, seen) for name, at in zip(names, order, strict=True)
                            for word in words[name] for seen in contexts[at])
    best = max(scores.values())
    winners = [order for order, score in scores.items() if score == best]
    if best == 0 or len(winners) > 1:
        return {}
    return {name: dates[at] for name, at in zip(names, winners[0], strict=True)}


def _terms(text: str) -> list[str]:
    return [word for word in re.findall(r"[a-z]+", text.lower())
            if word not in catalog.STOP_WORDS and len(word) > 2]


def _alike(one: str, other: str) -> bool:
    """Whether two words of four letters or more are forms of one ("measure", "measured";
    "birth", "born"): the same start of four letters, or the same first letter and the same
    consonant after it."""
    if min(len(one), len(other)) < 4:
        return one == other
    if one[:4] == other[:4]:
        return True

    def skeleton(word: str) -> str:
        return word[0] + re.sub(r"[aeiouy]", "", word[1:])
    first, second = skeleton(one), skeleton(other)
    return len(first) >= 2 and first[:2] == second[:2]

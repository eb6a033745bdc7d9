"""Trigger queries written by the model for the author to review, as skill-creator's
description optimisation starts: about half that should load the skill (varied, realistic user
messages) and half near misses that should not, drawn from its neighbours in the library (the
requests most easily confused with it). Nothing is saved here: the author keeps, edits or drops
each query first (the Evals tab, or `studio eval --generate-triggers`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studio.evals.editing import TriggersFile
from studio.evals.replies import answer_text
from studio.llm import ChatClient, Message
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.skills.search import catalog

DEFAULT_COUNT = 20
NEIGHBOURS = 5
MAX_QUERY = 500
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$")


def should_prompt(skill: SkillSummary, count: int) -> str:
    return (f"A skill named {skill.display_name!r} is described like this:\n"
            f"{(skill.description or '').strip()}\n\n"
            f"Write {count} different messages a user might send that this skill should handle. "
            "Vary them: casual and precise, short and long, some naming files or details, some "
            "not using the skill's own words. One per line, each starting with '- '.")


def near_miss_prompt(skill: SkillSummary, neighbours: Sequence[SkillSummary], count: int) -> str:
    others = "\n".join(f"- {n.display_name}: {(n.description or '').strip()}" for n in neighbours)
    return (f"A skill named {skill.display_name!r} is described like this:\n"
            f"{(skill.description or '').strip()}\n\n"
            + (f"Other skills in the same library:\n{others}\n\n" if others else "")
            + f"Write {count} messages a user might send that sound related but that this skill "
            "should NOT handle: requests for the other skills, or nearby tasks it does not do. "
            "One per line, each starting with '- '.")


def read_queries(text: str, count: int) -> list[str]:
    found: list[str] = []
    for line in text.splitlines():
        match = _ITEM.match(line)
        if match is None:
            continue
        query = match.group(1).strip().strip('"').strip()
        if query and len(query) <= MAX_QUERY and query not in found:
            found.append(query)
    return found[:count]


def neighbours_of(skill: SkillSummary, library: Sequence[SkillSummary]) -> list[SkillSummary]:
    """The skills of the library closest to `skill` by the words of its description."""
    others = [s for s in library if s.directory != skill.directory and s.description]
    ranked = catalog.rank_skills(others, f"{skill.display_name.replace('-', ' ')} {skill.description or ''}")
    return ranked[:NEIGHBOURS]


async def generate_triggers(client: ChatClient, model: str, skill: SkillSummary,
                            library: Sequence[SkillSummary], count: int = DEFAULT_COUNT,
                            existing: Sequence[evalfiles.TriggerQuery] = (),
                            options: dict[str, Any] | None = None) -> list[evalfiles.TriggerQuery]:
    """About `count` new queries, the should-trigger ones first; those already in `existing`
    are left out."""
    wanted = max(2, count)
    should = await _ask(client, model, should_prompt(skill, wanted - wanted // 2), options)
    near = await _ask(client, model, near_miss_prompt(skill, neighbours_of(skill, library),
                                                      wanted // 2), options)
    known = {q.query.strip().lower() for q in existing}
    generated: list[evalfiles.TriggerQuery] = []
    for queries, flag in ((read_queries(should, wanted - wanted // 2), True),
                          (read_queries(near, wanted // 2), False)):
        for query in queries:
            if query.lower() not in known:
                known.add(query.lower())
                generated.append(evalfiles.TriggerQuery(query, flag))
    return generated


def add_queries(skill_dir: Path, queries: Sequence[evalfiles.TriggerQuery]) -> int:
    """Add the queries the author kept to the skill's evals/triggers.json (what is there stays,
    duplicates are left out, the file is written whole); returns how many were new. OSError when
    the file cannot be read as queries or written."""
    file = TriggersFile(skill_dir)
    file.load()
    if file.problem:
        raise OSError(file.problem)
    present = {file.query(row).strip().lower() for row in range(len(file.rows()))}
    added = 0
    for query in queries:
        if query.query.strip().lower() not in present:
            file.add_row(query.query, query.should_trigger)
            present.add(query.query.strip().lower())
            added += 1
    if added:
        file.save()
    return added


async def _ask(client: ChatClient, model: str, prompt: str, options: dict[str, Any] | None) -> str:
    return await answer_text(client, model, [Message("user", prompt)], options)

"""The first step of improving a description from trigger failures: the model proposes variants,
and a held-out split of the trigger set keeps the comparison honest (a variant is written
against the training queries' failures and judged on queries it never saw).

Re-running the trigger set with a variant is `EvalRunner.triggers` on the skill's summary with
the variant as its description (`with_description`); the window's diff view and "apply" come later.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import AsyncGenerator, Sequence
from dataclasses import replace
from typing import Any, cast

from studio.evals.files import TriggerQuery
from studio.evals.report import QueryResult
from studio.llm.client import ChatClient
from studio.llm.types import Message, StreamEvent, TextChunk
from studio.skills.summary import SkillSummary

MAX_DESCRIPTION = 1024
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$")


def split_held_out(queries: Sequence[TriggerQuery], share: float = 0.4
                   ) -> tuple[list[TriggerQuery], list[TriggerQuery]]:
    """(train, held out): about `share` of the queries of each kind held out, chosen by a hash of
    the query so the split stays the same from run to run and as queries are added."""
    train: list[TriggerQuery] = []
    held: list[TriggerQuery] = []
    for should in (True, False):
        group = sorted((q for q in queries if q.should_trigger is should),
                       key=lambda q: hashlib.sha256(q.query.encode()).hexdigest())
        count = round(len(group) * share) if len(group) > 1 else 0
        held += group[:count]
        train += group[count:]
    return train, held


def proposal_prompt(name: str, description: str, failures: Sequence[QueryResult], count: int) -> str:
    missed = [f.query for f in failures if f.should_trigger]
    wrong = [f.query for f in failures if not f.should_trigger]
    lines = [f"The skill {name!r} has this description, which decides when a model uses it:",
             description, ""]
    if missed:
        lines += ["It was NOT used for these requests, where it should have been:",
                  *(f"- {q}" for q in missed), ""]
    if wrong:
        lines += ["It WAS used for these requests, where it should not have been:",
                  *(f"- {q}" for q in wrong), ""]
    lines.append(f"Write {count} better descriptions, each one line starting with '- ', each under "
                 f"{MAX_DESCRIPTION} characters, saying what the skill does and when to use it.")
    return "\n".join(lines)


def read_proposals(text: str, current: str, count: int) -> list[str]:
    """The variants in the model's answer: list items, new, not too long, at most `count`."""
    found: list[str] = []
    for line in text.splitlines():
        match = _ITEM.match(line)
        if match is None:
            continue
        variant = match.group(1).strip().strip('"').strip()
        if variant and len(variant) <= MAX_DESCRIPTION and variant != current.strip() \
                and variant not in found:
            found.append(variant)
    return found[:count]


async def propose_descriptions(client: ChatClient, model: str, skill: SkillSummary,
                               failures: Sequence[QueryResult], count: int = 3,
                               options: dict[str, Any] | None = None) -> list[str]:
    """Description variants the model proposes from the trigger failures."""
    prompt = proposal_prompt(skill.display_name, skill.description or "", failures, count)
    stream = cast(AsyncGenerator[StreamEvent, None],
                  client.chat(model, [Message("user", prompt)], options=options))
    parts: list[str] = []
    async with contextlib.aclosing(stream):
        async for event in stream:
            if isinstance(event, TextChunk):
                parts.append(event.text)
    return read_proposals("".join(parts), skill.description or "", count)


def with_description(skill: SkillSummary, description: str) -> SkillSummary:
    """The skill as the catalog would show it with `description`."""
    return replace(skill, description=description)

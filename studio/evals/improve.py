"""Improving a description from trigger failures: the model proposes variants, and a held-out
split of the trigger set keeps the comparison honest (a variant is written against the training
queries' failures and judged on queries it never saw).

`improve_description` runs the loop: the current description on both splits, variants proposed
from the training failures, each variant run on both splits (`EvalRunner.triggers` with the
variant as the skill's description in the catalog).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from studio.evals.files import TriggerQuery
from studio.evals.report import QueryResult, SkillReport, TriggerReport
from studio.evals.runner import EvalRunner
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


@dataclass(frozen=True, slots=True)
class Variant:
    """A description and how the trigger set went with it, on the training and held-out
    queries."""

    description: str
    train: TriggerReport
    held_out: TriggerReport


@dataclass(slots=True)
class Improvement:
    """The current description's figures and the variants', best first on the held-out queries.

    Attributes:
        note: why there are no variants (nothing failed, the model proposed none), or "".
    """

    current: Variant
    variants: list[Variant] = field(default_factory=list)
    note: str = ""


def _score(variant: Variant) -> tuple[float, float]:
    held, train = variant.held_out, variant.train
    return (_f1(held.precision, held.recall), _f1(train.precision, train.recall))


def _f1(precision: float | None, recall: float | None) -> float:
    if not precision or not recall:
        return 0.0
    return 2 * precision * recall / (precision + recall)


async def _measure(runner: EvalRunner, target: SkillSummary, catalog: Sequence[SkillSummary],
                   report: SkillReport, queries: Sequence[TriggerQuery], runs: int) -> TriggerReport:
    measured = TriggerReport(runs)
    if queries:
        await runner.triggers(target, catalog, queries, runs, report)
        measured = report.trigger or measured
    return measured


async def _variant(runner: EvalRunner, target: SkillSummary, catalog: Sequence[SkillSummary],
                   report: SkillReport, description: str, split: tuple[list[TriggerQuery], ...],
                   runs: int) -> Variant:
    shown = with_description(target, description)
    others = [shown if s.directory == target.directory else s for s in catalog]
    train, held = split
    return Variant(description, await _measure(runner, shown, others, report, train, runs),
                   await _measure(runner, shown, others, report, held, runs))


async def improve_description(runner: EvalRunner, target: SkillSummary,
                              catalog: Sequence[SkillSummary], queries: Sequence[TriggerQuery],
                              report: SkillReport, *, count: int = 3, runs: int = 1) -> Improvement:
    """Run the whole loop; `report` gives the skill's hash and model for the cache and collects
    problems. Raises what the runner raises (EvalError, LLMError) when the server fails."""
    split = split_held_out(queries)
    current = await _variant(runner, target, catalog, report, target.description or "", split,
                             runs)
    improvement = Improvement(current)
    failures = current.train.confusion
    if not failures:
        improvement.note = ("Every training query went as it should with the current "
                            "description; add queries it gets wrong to improve it.")
        return improvement
    runner.progress(f"{target.display_name}: asking the model for better descriptions")
    client, model = await runner.factory.server.open(runner.grader_model or runner.settings.model)
    proposals = await propose_descriptions(client, model, target, failures, count,
                                           dict(runner.settings.options))
    if not proposals:
        improvement.note = "The model proposed no description that could be read; try again."
        return improvement
    for description in proposals:
        improvement.variants.append(
            await _variant(runner, target, catalog, report, description, split, runs))
    improvement.variants.sort(key=_score, reverse=True)
    return improvement

"""Improving a description from trigger failures: the model proposes variants, and a held-out
split of the trigger set keeps the comparison honest (a variant is written against the training
queries' failures and judged on queries it never saw).

`improve_description` runs the loop: the current description on both splits, variants proposed
from the training failures, each variant run on both splits (`EvalRunner.triggers` with the
variant as the skill's description in the catalog).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from studio.evals.replies import answer_text
from studio.evals.report import QueryResult, SkillReport, TriggerReport
from studio.evals.runner import EvalRunner
from studio.llm import ChatClient, Message
from studio.skills import SkillSummary
from studio.skills.checks import MAX_DESCRIPTION, evalfiles

# skill-creator's run_loop stops after 5 iterations by default.
MAX_ROUNDS = 5
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$")


def split_held_out(queries: Sequence[evalfiles.TriggerQuery], share: float = 0.4
                   ) -> tuple[list[evalfiles.TriggerQuery], list[evalfiles.TriggerQuery]]:
    """(train, held out): about `share` of the queries of each kind held out, chosen by a hash of
    the query so the split stays the same from run to run and as queries are added."""
    train: list[evalfiles.TriggerQuery] = []
    held: list[evalfiles.TriggerQuery] = []
    for should in (True, False):
        group = sorted((q for q in queries if q.should_trigger is should),
                       key=lambda q: hashlib.sha256(q.query.encode()).hexdigest())
        count = round(len(group) * share) if len(group) > 1 else 0
        held += group[:count]
        train += group[count:]
    return train, held


def proposal_prompt(name: str, description: str, failures: Sequence[QueryResult], count: int,
                    tried: Sequence[tuple[str, str]] = ()) -> str:
    """What the proposer is asked: the description, its training failures, and the descriptions
    tried in earlier rounds with their training scores. Held-out queries and scores never appear
    here: they judge the variants, so the proposer must not fit them."""
    missed = [f.query for f in failures if f.should_trigger]
    wrong = [f.query for f in failures if not f.should_trigger]
    lines = [f"The skill {name!r} has this description, which decides when a model uses it:",
             description, ""]
    if tried:
        lines += ["Descriptions tried before, with how many training requests each got right:",
                  *(f"- {score}: {text}" for text, score in tried), ""]
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
                               options: dict[str, Any] | None = None,
                               tried: Sequence[tuple[str, str]] = ()) -> list[str]:
    """Description variants the model proposes from the trigger failures."""
    prompt = proposal_prompt(skill.display_name, skill.description or "", failures, count, tried)
    text = await answer_text(client, model, [Message("user", prompt)], options)
    return read_proposals(text, skill.description or "", count)


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
        rounds: how many rounds of proposals were made.
    """

    current: Variant
    variants: list[Variant] = field(default_factory=list)
    note: str = ""
    rounds: int = 0


def _score(variant: Variant) -> tuple[float, float]:
    held, train = variant.held_out, variant.train
    return (_f1(held.precision, held.recall), _f1(train.precision, train.recall))


def _f1(precision: float | None, recall: float | None) -> float:
    if not precision or not recall:
        return 0.0
    return 2 * precision * recall / (precision + recall)


async def _measure(runner: EvalRunner, target: SkillSummary, catalog: Sequence[SkillSummary],
                   report: SkillReport, queries: Sequence[evalfiles.TriggerQuery],
                   runs: int) -> TriggerReport:
    measured = TriggerReport(runs)
    if queries:
        await runner.triggers(target, catalog, queries, runs, report)
        measured = report.trigger or measured
    return measured


async def _variant(runner: EvalRunner, target: SkillSummary, catalog: Sequence[SkillSummary],
                   report: SkillReport, description: str, split: tuple[list[evalfiles.TriggerQuery], ...],
                   runs: int) -> Variant:
    shown = with_description(target, description)
    others = [shown if s.directory == target.directory else s for s in catalog]
    train, held = split
    return Variant(description, await _measure(runner, shown, others, report, train, runs),
                   await _measure(runner, shown, others, report, held, runs))


async def improve_description(runner: EvalRunner, target: SkillSummary,
                              catalog: Sequence[SkillSummary], queries: Sequence[evalfiles.TriggerQuery],
                              report: SkillReport, *, count: int = 3, runs: int = 1,
                              rounds: int = MAX_ROUNDS) -> Improvement:
    """Run the loop, as skill-creator's run_loop does: the queries split 60/40 into training and
    held out; each round the model proposes variants from the failures of the best description
    so far on the training queries (and the training scores of what it tried before), at most
    `rounds` rounds, stopping once a description gets every training query right. Held-out
    scores are never shown to the proposer; the variants are ranked by them. `report` gives the
    skill's hash and model for the cache. Raises what the runner raises (EvalError, LLMError)."""
    split = split_held_out(queries)
    current = await _variant(runner, target, catalog, report, target.description or "", split,
                             runs)
    improvement = Improvement(current)
    if not current.train.confusion:
        improvement.note = ("Every training query went as it should with the current "
                            "description; add queries it gets wrong to improve it.")
        return improvement
    client, model = await runner.factory.server.open(runner.grader_model or runner.settings.model)
    seen = {current.description.strip()}
    for number in range(1, max(1, rounds) + 1):
        base = max([current, *improvement.variants], key=_train_score)
        if not base.train.confusion:
            break
        runner.progress(f"{target.display_name}: asking the model for better descriptions "
                        f"(round {number} of at most {rounds})")
        tried = [(v.description, _train_right(v)) for v in [current, *improvement.variants]]
        proposals = await propose_descriptions(client, model, with_description(target, base.description),
                                               base.train.confusion, count,
                                               dict(runner.settings.options), tried)
        fresh = [p for p in proposals if p.strip() not in seen]
        if not fresh:
            if not improvement.variants:
                improvement.note = "The model proposed no description that could be read; try again."
            break
        for description in fresh:
            seen.add(description.strip())
            improvement.variants.append(
                await _variant(runner, target, catalog, report, description, split, runs))
        improvement.rounds = number
    improvement.variants.sort(key=_score, reverse=True)
    return improvement


def _train_score(variant: Variant) -> float:
    return _f1(variant.train.precision, variant.train.recall) - len(variant.train.confusion) * 1e-6


def _train_right(variant: Variant) -> str:
    queries = variant.train.queries
    right = sum(q.triggered == q.should_trigger for q in queries)
    return f"{right} of {len(queries)}"

"""What the figures of a run say about the evals themselves, as the agentskills.io guide asks an
author to look for: expectations that never tell the skill apart (they pass, or fail, with and
without it), evals whose verdict changes between runs, and the evals that cost the most."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from studio.evals.report import EvalResult


@dataclass(frozen=True, slots=True)
class Analysis:
    """Each list names evals by id and expectations by their text.

    Attributes:
        always_pass: (eval, expectation) passing in every run with the skill and without it.
        always_fail: (eval, expectation) failing in every run of both.
        flaky: evals that passed in some runs and failed in others (with the skill).
        costliest: (eval, mean seconds, mean tokens), most expensive first, at most three.
    """

    always_pass: list[tuple[str, str]]
    always_fail: list[tuple[str, str]]
    flaky: list[str]
    costliest: list[tuple[str, float, float]]

    def notes(self) -> list[str]:
        """The analysis as sentences, for the report and benchmark.json's `notes`."""
        found = []
        for case, text in self.always_pass:
            found.append(f"eval {case}: {text!r} passes with and without the skill: it does not "
                         "tell them apart; tighten or replace it")
        for case, text in self.always_fail:
            found.append(f"eval {case}: {text!r} fails with and without the skill: the check, "
                         "the task or the skill is broken")
        for case in self.flaky:
            found.append(f"eval {case}: passes in some runs and fails in others: the eval is "
                         "flaky or the instructions are ambiguous")
        if self.costliest:
            case, seconds, tokens = self.costliest[0]
            found.append(f"eval {case} costs the most: {seconds:.1f} s and {tokens:,.0f} tokens a "
                         "run on average")
        return found


def analyse(with_skill: Sequence[EvalResult],
            without_skill: Sequence[EvalResult] | None = None) -> Analysis:
    always_pass: list[tuple[str, str]] = []
    always_fail: list[tuple[str, str]] = []
    if without_skill:
        verdicts: dict[tuple[str, str], list[bool]] = defaultdict(list)
        for result in [*with_skill, *without_skill]:
            for verdict in result.expectations:
                verdicts[(result.id, verdict.text)].append(verdict.passed)
        ran_without = {r.id for r in without_skill}
        for key, passed in verdicts.items():
            if key[0] not in ran_without:
                continue
            if all(passed):
                always_pass.append(key)
            elif not any(passed):
                always_fail.append(key)
    outcomes: dict[str, set[bool]] = defaultdict(set)
    costs: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for result in with_skill:
        outcomes[result.id].add(result.passed)
        costs[result.id].append((result.seconds, result.tokens))
    flaky = [case for case, seen in outcomes.items() if len(seen) > 1]
    means = [(case, sum(s for s, _ in runs) / len(runs), sum(t for _, t in runs) / len(runs))
             for case, runs in costs.items()]
    costliest = sorted(means, key=lambda item: (-item[1], -item[2], item[0]))[:3] if len(means) > 1 else []
    return Analysis(always_pass, always_fail, flaky, costliest)

"""The results of a skill's evals, and the figures drawn from them."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from studio.evals.checks import Verdict


@dataclass(frozen=True, slots=True)
class QueryResult:
    """One trigger query on one run: should the skill have been picked, and was it.

    Attributes:
        called: the first tool the model called ("" when it answered without one).
        skill: the skill that call named ("" when none: another skill's name or one that does
            not exist is kept, so a wrong pick says what it picked).
        error: why the model's turn ended without a usable first choice ("" when it made one).
        trace: the run up to that call (`Trace.to_json`), for its transcript.
    """

    query: str
    should_trigger: bool
    run: int
    triggered: bool
    called: str = ""
    skill: str = ""
    error: str = ""
    trace: dict[str, Any] = field(default_factory=dict)

    @property
    def first_call(self) -> str:
        """ "activate_skill(pdf-tools)", "read_skill_file", or "" when it answered."""
        return f"{self.called}({self.skill})" if self.called and self.skill else self.called

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"query": self.query, "should_trigger": self.should_trigger,
                                "run": self.run, "triggered": self.triggered, "called": self.called,
                                "skill": self.skill, "trace": self.trace}
        if self.error:
            data["error"] = self.error
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QueryResult:
        return cls(str(data["query"]), bool(data["should_trigger"]), int(data["run"]),
                   bool(data["triggered"]), str(data.get("called", "")),
                   str(data.get("skill") or ""), str(data.get("error", "")),
                   dict(data.get("trace") or {}))

    @property
    def choice(self) -> str:
        """The model's first choice for a person: "activate_skill(pdf-tools)", "no tool", or
        why there was none."""
        if self.error:
            return f"no usable reply ({self.error})"
        if not self.called:
            return "no tool"
        return f"{self.called}({self.skill})" if self.skill else self.called


@dataclass(frozen=True, slots=True)
class QueryRate:
    """One query over its runs: how often the skill was picked, and whether that is right at the
    report's threshold (skill-creator's rule: a query that should trigger passes when its rate is
    at least the threshold, one that should not when it is below)."""

    query: str
    should_trigger: bool
    triggers: int
    runs: int
    threshold: float

    @property
    def rate(self) -> float:
        return self.triggers / self.runs if self.runs else 0.0

    @property
    def triggered(self) -> bool:
        return self.runs > 0 and self.rate >= self.threshold

    @property
    def passed(self) -> bool:
        return self.triggered == self.should_trigger

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "should_trigger": self.should_trigger,
                "trigger_rate": self.rate, "triggers": self.triggers, "runs": self.runs,
                "pass": self.passed}


def decided(triggers: int, done: int, runs: int, threshold: float) -> bool:
    """Whether a query's outcome at `threshold` is known after `done` of its `runs` runs, with
    `triggers` picks so far: the rest cannot bring its rate to the threshold, or cannot take it
    below (early stopping)."""
    left = runs - done
    return triggers / runs >= threshold or (triggers + left) / runs < threshold


@dataclass(slots=True)
class TriggerReport:
    runs: int
    queries: list[QueryResult] = field(default_factory=list)
    threshold: float = 0.5

    def rates(self) -> list[QueryRate]:
        """Each query over its runs, in the order the queries were asked."""
        counts: dict[tuple[str, bool], list[int]] = {}
        for result in self.queries:
            tally = counts.setdefault((result.query, result.should_trigger), [0, 0])
            tally[0] += result.triggered
            tally[1] += 1
        return [QueryRate(query, should, triggers, runs, self.threshold)
                for (query, should), (triggers, runs) in counts.items()]

    @property
    def query_precision(self) -> float | None:
        """Precision over queries judged by their rate (None: no query is judged triggered)."""
        picked = [rate for rate in self.rates() if rate.triggered]
        return sum(rate.should_trigger for rate in picked) / len(picked) if picked else None

    @property
    def query_recall(self) -> float | None:
        wanted = [rate for rate in self.rates() if rate.should_trigger]
        return sum(rate.triggered for rate in wanted) / len(wanted) if wanted else None

    @property
    def precision(self) -> float | None:
        """Of the runs that picked the skill, the share that should have (None: none picked it)."""
        picked = [q for q in self.queries if q.triggered]
        return sum(q.should_trigger for q in picked) / len(picked) if picked else None

    @property
    def recall(self) -> float | None:
        """Of the runs that should have picked the skill, the share that did."""
        wanted = [q for q in self.queries if q.should_trigger]
        return sum(q.triggered for q in wanted) / len(wanted) if wanted else None

    @property
    def confusion(self) -> list[QueryResult]:
        """The runs that got it wrong: picked when they should not, or missed."""
        return [q for q in self.queries if q.triggered != q.should_trigger]

    def of_run(self, run: int) -> TriggerReport:
        """The queries of one run only."""
        return TriggerReport(1, [q for q in self.queries if q.run == run])

    def spread(self) -> dict[str, Spread]:
        """Precision and recall run by run: their mean, standard deviation and range."""
        runs = sorted({q.run for q in self.queries})
        per_run = [self.of_run(run) for run in runs]
        return {"precision": Spread.of([r.precision for r in per_run]),
                "recall": Spread.of([r.recall for r in per_run])}

    def to_json(self) -> dict[str, Any]:
        runs = sorted({q.run for q in self.queries})
        spread = self.spread()
        return {"precision": self.precision, "recall": self.recall, "runs": self.runs,
                "per_run": [{"run": run, "precision": self.of_run(run).precision,
                             "recall": self.of_run(run).recall} for run in runs],
                "precision_over_runs": spread["precision"].to_json(),
                "recall_over_runs": spread["recall"].to_json(),
                "queries": [q.to_json() for q in self.queries],
                "confusion": [q.to_json() for q in self.confusion],
                "threshold": self.threshold,
                "query_rates": [rate.to_json() for rate in self.rates()],
                "query_precision": self.query_precision, "query_recall": self.query_recall}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TriggerReport:
        """The report `to_json` wrote (the figures are worked out again from the queries)."""
        return cls(int(data["runs"]), [QueryResult.from_json(q) for q in data["queries"]],
                   float(data.get("threshold", 0.5)))


@dataclass(frozen=True, slots=True)
class Spread:
    """A figure over several runs (runs where it is undefined left out)."""

    values: tuple[float, ...]

    @classmethod
    def of(cls, values: list[float | None]) -> Spread:
        return cls(tuple(v for v in values if v is not None))

    @property
    def mean(self) -> float | None:
        return statistics.fmean(self.values) if self.values else None

    @property
    def stdev(self) -> float | None:
        return statistics.pstdev(self.values) if self.values else None

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "stdev": self.stdev, "runs": len(self.values),
                "min": min(self.values, default=None), "max": max(self.values, default=None)}


@dataclass(frozen=True, slots=True)
class EvalResult:
    """One outcome eval on one run, graded."""

    id: str
    run: int
    expectations: tuple[Verdict, ...]
    rounds: int
    seconds: float
    outcome: str
    trace: dict[str, Any] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def passed(self) -> bool:
        return self.outcome == "answered" and all(v.passed for v in self.expectations)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "run": self.run, "passed": self.passed,
                "expectations": [v.to_json() for v in self.expectations],
                "rounds": self.rounds, "seconds": round(self.seconds, 3), "outcome": self.outcome,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "trace": self.trace}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EvalResult:
        verdicts = tuple(Verdict(str(v["text"]), bool(v["passed"]), str(v["how"]), str(v["reason"]))
                         for v in data["expectations"])
        return cls(str(data["id"]), int(data["run"]), verdicts, int(data["rounds"]),
                   float(data["seconds"]), str(data["outcome"]), dict(data.get("trace") or {}),
                   int(data.get("prompt_tokens", 0)), int(data.get("completion_tokens", 0)))


def pass_rate(results: list[EvalResult]) -> float | None:
    return sum(r.passed for r in results) / len(results) if results else None


def pass_counts(results: list[EvalResult]) -> dict[str, tuple[int, int]]:
    """Per eval id, in the order first run: (runs passed, runs)."""
    counts: dict[str, tuple[int, int]] = {}
    for result in results:
        passed, runs = counts.get(result.id, (0, 0))
        counts[result.id] = (passed + result.passed, runs + 1)
    return counts


def _counts_json(results: list[EvalResult]) -> list[dict[str, Any]]:
    return [{"id": case, "passed": passed, "runs": runs}
            for case, (passed, runs) in pass_counts(results).items()]


@dataclass(slots=True)
class SkillReport:
    """Everything `studio eval` found for one skill; filled in as results arrive, so a cancelled
    run still reports what finished."""

    skill: str
    skill_hash: str
    model: str
    trigger: TriggerReport | None = None
    evals: list[EvalResult] = field(default_factory=list)
    without_skill: list[EvalResult] | None = None
    # The same evals on an earlier version of the skill (`--baseline REF`), and which version.
    old_skill: list[EvalResult] | None = None
    old_ref: str = ""
    # Blind comparisons of the answers with the baseline's (`--compare`), as JSON objects.
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    # The author's review notes by eval id (evals/feedback.json), shown beside the results.
    feedback: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    cached: int = 0
    cancelled: bool = False
    # What the run did besides its figures, for the user ("results written to ...").
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "skill": self.skill, "model": self.model, "skill_hash": self.skill_hash,
            "trigger": self.trigger.to_json() if self.trigger is not None else None,
            "evals": [r.to_json() for r in self.evals], "pass_rate": pass_rate(self.evals),
            "pass_counts": _counts_json(self.evals),
        }
        if self.without_skill is not None:
            data["without_skill"] = {"evals": [r.to_json() for r in self.without_skill],
                                     "pass_rate": pass_rate(self.without_skill),
                                     "pass_counts": _counts_json(self.without_skill)}
        if self.old_skill is not None:
            data["old_skill"] = {"ref": self.old_ref, "evals": [r.to_json() for r in self.old_skill],
                                 "pass_rate": pass_rate(self.old_skill),
                                 "pass_counts": _counts_json(self.old_skill)}
        if self.comparisons:
            data["comparisons"] = self.comparisons
        if self.feedback:
            data["feedback"] = self.feedback
        data.update(problems=self.problems, cached=self.cached, cancelled=self.cancelled)
        if self.notes:
            data["notes"] = self.notes
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SkillReport:
        """The report `to_json` wrote; KeyError, TypeError or ValueError when it is not one."""
        trigger = data.get("trigger")
        without, old = data.get("without_skill"), data.get("old_skill")
        report = cls(str(data["skill"]), str(data["skill_hash"]), str(data["model"]),
                     TriggerReport.from_json(trigger) if trigger is not None else None,
                     [EvalResult.from_json(r) for r in data["evals"]])
        if without is not None:
            report.without_skill = [EvalResult.from_json(r) for r in without["evals"]]
        if old is not None:
            report.old_skill = [EvalResult.from_json(r) for r in old["evals"]]
            report.old_ref = str(old.get("ref", ""))
        report.comparisons = [dict(c) for c in data.get("comparisons", [])]
        report.feedback = {str(k): str(v) for k, v in dict(data.get("feedback", {})).items()}
        report.problems = [str(p) for p in data.get("problems", [])]
        report.cached = int(data.get("cached", 0))
        report.cancelled = bool(data.get("cancelled", False))
        report.notes = [str(n) for n in data.get("notes", [])]
        return report

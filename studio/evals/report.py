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
        skill: the skill that call named ("" when none: another skill than the one judged is
            how a query goes wrong).
        trace: the run up to that call (`Trace.to_json`), for its transcript.
    """

    query: str
    should_trigger: bool
    run: int
    triggered: bool
    called: str = ""
    skill: str = ""
    trace: dict[str, Any] = field(default_factory=dict)

    @property
    def first_call(self) -> str:
        """ "activate_skill(pdf-tools)", "read_skill_file", or "" when it answered."""
        return f"{self.called}({self.skill})" if self.called and self.skill else self.called

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "should_trigger": self.should_trigger, "run": self.run,
                "triggered": self.triggered, "called": self.called, "skill": self.skill,
                "trace": self.trace}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QueryResult:
        return cls(str(data["query"]), bool(data["should_trigger"]), int(data["run"]),
                   bool(data["triggered"]), str(data.get("called", "")),
                   str(data.get("skill") or ""), dict(data.get("trace") or {}))


@dataclass(slots=True)
class TriggerReport:
    runs: int
    queries: list[QueryResult] = field(default_factory=list)

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
                "confusion": [q.to_json() for q in self.confusion]}


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

    @property
    def passed(self) -> bool:
        return self.outcome == "answered" and all(v.passed for v in self.expectations)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "run": self.run, "passed": self.passed,
                "expectations": [v.to_json() for v in self.expectations],
                "rounds": self.rounds, "seconds": round(self.seconds, 3), "outcome": self.outcome,
                "trace": self.trace}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EvalResult:
        verdicts = tuple(Verdict(str(v["text"]), bool(v["passed"]), str(v["how"]), str(v["reason"]))
                         for v in data["expectations"])
        return cls(str(data["id"]), int(data["run"]), verdicts, int(data["rounds"]),
                   float(data["seconds"]), str(data["outcome"]), dict(data.get("trace") or {}))


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
    problems: list[str] = field(default_factory=list)
    cached: int = 0
    cancelled: bool = False

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
        data.update(problems=self.problems, cached=self.cached, cancelled=self.cancelled)
        return data

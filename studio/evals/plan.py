"""One skill's whole run, as `studio eval` and the window's Evals view both make it: the trigger
queries (at a threshold, with early stopping), the outcome evals with the skill, without it and on
a baseline version, the blind comparison, the analysis, and the figures a benchmark shows. Kept
here, without a front end, so the two give the same report for the same choices."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from studio.evals.analysis import analyse
from studio.evals.baseline import BaselineError, snapshot_at
from studio.evals.cache import skill_hash
from studio.evals.comparator import compare, pairs
from studio.evals.feedback import read_feedback
from studio.evals.iteration import Iteration, workspace_for, write_iteration
from studio.evals.report import EvalResult, SkillReport, Spread
from studio.evals.runner import EvalError, EvalRunner
from studio.evals.spread import ServerPool
from studio.llm import LLMError
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.skills.scan import scan

Runner = EvalRunner | ServerPool


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What a run does besides the trigger queries and the evals with the skill.

    Attributes:
        runs: runs per query and eval.
        threshold: the share of its runs in which a query must pick the skill to count as
            triggered.
        early_stop: stop a query's runs once its outcome at the threshold cannot change.
        without_skill: run the evals with no skill too.
        baseline: a git ref of the skill's folder to run the evals on too ("" for none).
        compare: have a grader compare each answer with the baseline's, blind.
        only: "triggers" or "evals" to run one kind alone (None: both).
        grader_model: the model that compares ("" for the one under test).
    """

    runs: int = 1
    threshold: float = 0.5
    early_stop: bool = False
    without_skill: bool = False
    baseline: str = ""
    compare: bool = False
    only: str | None = None
    grader_model: str = ""


async def run_skill(runner: Runner, plan: RunPlan, report: SkillReport, target: SkillSummary,
                    catalog: Sequence[SkillSummary]) -> str:
    """Run one skill into `report`; returns why the server failed ("" when it did not). What
    finished before a failure stays in the report (and the cache), and the report says what did
    not run; a model's unusable reply is a result, never a failure here."""
    triggers = evals = None
    try:
        triggers = evalfiles.read_triggers(target.directory) if plan.only != "evals" else None
        evals = evalfiles.read_evals(target.directory) if plan.only != "triggers" else None
    except evalfiles.EvalFileError as exc:
        report.problems.append(str(exc))
        return ""
    try:
        report.feedback = read_feedback(target.directory)
    except evalfiles.EvalFileError as exc:
        report.problems.append(str(exc))
    if triggers is None and evals is None:
        report.problems.append(f"{target.directory} has no evals/triggers.json or evals/evals.json")
        return ""
    cases = evals.evals if evals is not None else ()
    try:
        if triggers:
            await runner.triggers(target, catalog, triggers, plan.runs, report,
                                  threshold=plan.threshold, early_stop=plan.early_stop)
        if cases:
            await runner.outcomes(target, [target], cases, plan.runs, report, report.evals, "with")
            if plan.without_skill:
                report.without_skill = []
                await runner.outcomes(target, [], cases, plan.runs, report, report.without_skill,
                                      "without")
            if plan.baseline:
                await run_baseline(runner, plan, report, target, cases)
            if plan.compare:
                await compare_blind(runner, plan, report, {case.id: case.prompt for case in cases})
    except (EvalError, LLMError) as exc:
        reason = exc.user_message if isinstance(exc, LLMError) else str(exc)
        report.problems.append(reason)
        missing = not_run(report, len(triggers or []) * plan.runs, len(cases) * plan.runs)
        if missing:
            report.problems.append(f"did not run: {missing}")
        return reason
    return ""


async def run_baseline(runner: Runner, plan: RunPlan, report: SkillReport, target: SkillSummary,
                       cases: Sequence[evalfiles.EvalCase]) -> None:
    """The evals on the skill as `plan.baseline` has it, into `report.old_skill`."""
    with tempfile.TemporaryDirectory(prefix="studio-baseline-") as scratch:
        try:
            folder = snapshot_at(target.directory, plan.baseline, Path(scratch))
        except BaselineError as exc:
            report.problems.append(f"no baseline: {exc}")
            return
        old = next((s for s in scan([folder]).skills if s.loadable), None)
        if old is None:
            report.problems.append(f"no baseline: the skill at {plan.baseline} would not load")
            return
        report.old_ref = plan.baseline
        report.old_skill = []
        await runner.outcomes(old, [old], cases, plan.runs, report, report.old_skill,
                              f"old:{skill_hash(folder)}")


async def compare_blind(runner: Runner, plan: RunPlan, report: SkillReport,
                        prompts: dict[str, str]) -> None:
    """Each answer beside the baseline's (the earlier version, else no skill), judged blind."""
    baseline = report.old_skill if report.old_skill else report.without_skill
    if not baseline:
        report.problems.append("a blind comparison needs a baseline version or a run without "
                               "the skill to compare with")
        return
    single = runner.runners[0] if isinstance(runner, ServerPool) else runner
    client, model = await single.factory.server.open(plan.grader_model or single.settings.model)
    for new, old in pairs(report.evals, baseline):
        comparison = await compare(client, model, prompts.get(new.id, ""), new, old,
                                   dict(single.settings.options))
        report.comparisons.append(comparison.to_json())


def comparison_summary(report: SkillReport) -> str:
    """"blind comparison against HEAD: this version preferred in 3 of 4, ..." ("" when none)."""
    if not report.comparisons:
        return ""
    counts = Counter(str(comparison.get("winner", "none")) for comparison in report.comparisons)
    against = report.old_ref or "no skill"
    return (f"blind comparison against {against}: this version preferred in {counts['new']} of "
            f"{len(report.comparisons)}, the baseline in {counts['old']}, tied {counts['tie']}"
            + (f", no verdict {counts['none']}" if counts["none"] else ""))


def save_iteration(report: SkillReport, target: SkillSummary, into: Path | None = None) -> Path:
    """The outcome evals that finished as the next iteration-N/ of the skill's workspace (beside
    the skill, or in `into`/NAME-workspace); returns its folder. OSError when it cannot be
    written; ValueError when there is nothing to write."""
    if not report.evals:
        raise ValueError("no outcome eval has run yet: run the evals first")
    results = {"with_skill": report.evals}
    if report.old_skill:
        results["old_skill"] = report.old_skill
    if report.without_skill:
        results["without_skill"] = report.without_skill
    workspace = (workspace_for(target.directory) if into is None
                 else into / f"{target.directory.name}-workspace")
    try:
        evals = evalfiles.read_evals(target.directory)
    except evalfiles.EvalFileError:
        evals = None
    prompts = {case.id: case.prompt for case in evals.evals} if evals is not None else {}
    return write_iteration(workspace, target.display_name, target.directory, report.model,
                           results, prompts, analysis_notes(report), report.comparisons)


def report_of(iteration: Iteration, skill: str) -> SkillReport:
    """A saved iteration (the studio's or skill-creator's) as a report the views show."""
    results = iteration.results
    report = SkillReport(skill, "", f"iteration {iteration.folder.name}")
    report.evals = list(results.get("with_skill", []))
    if "without_skill" in results:
        report.without_skill = list(results["without_skill"])
    if "old_skill" in results:
        report.old_skill = list(results["old_skill"])
        report.old_ref = "the old skill"
    report.comparisons = list(iteration.comparisons)
    report.notes.append(f"read from {iteration.folder}")
    return report


def not_run(report: SkillReport, trigger_runs: int, eval_runs: int) -> str:
    """What a run that stopped early left out, for the report ("" when nothing)."""
    parts = []
    done_triggers = len(report.trigger.queries) if report.trigger is not None else 0
    if trigger_runs > done_triggers:
        parts.append(f"{trigger_runs - done_triggers} of {trigger_runs} trigger query runs")
    if eval_runs > len(report.evals):
        parts.append(f"{eval_runs - len(report.evals)} of {eval_runs} eval runs")
    return ", ".join(parts)


def analysis_notes(report: SkillReport) -> list[str]:
    """What the figures say about the evals: only with a baseline or several runs to compare."""
    if not report.evals or (report.without_skill is None
                            and len({r.run for r in report.evals}) < 2):
        return []
    return analyse(report.evals, report.without_skill).notes()


@dataclass(frozen=True, slots=True)
class Figures:
    """A configuration's benchmark: its pass rate, and seconds and tokens a run over its runs."""

    label: str
    runs: int
    pass_rate: float
    seconds: Spread
    tokens: Spread

    @classmethod
    def of(cls, label: str, results: Sequence[EvalResult]) -> Figures:
        return cls(label, len(results), sum(r.passed for r in results) / len(results),
                   Spread.of([r.seconds for r in results]),
                   Spread.of([float(r.tokens) for r in results]))


def benchmark(report: SkillReport) -> list[Figures]:
    """This version's figures first, then each baseline that ran (an earlier version, no skill)."""
    found = [Figures.of("this version", report.evals)] if report.evals else []
    if report.old_skill:
        found.append(Figures.of(f"at {report.old_ref}", report.old_skill))
    if report.without_skill:
        found.append(Figures.of("without the skill", report.without_skill))
    return found


def deltas(results: list[EvalResult], baseline: list[EvalResult]) -> str:
    """The change a skill makes over its baseline, each figure a mean over runs with its spread."""
    new, old = Figures.of("", results), Figures.of("", baseline)
    return (f"pass rate {new.pass_rate - old.pass_rate:+.0%} ({percent(old.pass_rate)} -> "
            f"{percent(new.pass_rate)}), time {(new.seconds.mean or 0) - (old.seconds.mean or 0):+.1f}"
            f" s a run ({new.seconds.mean or 0:.1f} ± {new.seconds.stdev or 0:.1f} s), tokens "
            f"{(new.tokens.mean or 0) - (old.tokens.mean or 0):+,.0f} a run ({new.tokens.mean or 0:,.0f})")


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"

"""`studio eval`: does each skill trigger when it should, and does it do the job, on this model.

Trigger queries (evals/triggers.json) give precision, recall and the confusion list; outcome
evals (evals/evals.json) give each expectation's verdict, the rounds and the seconds. Progress
goes to stderr; the report to stdout (with `--json`, one JSON object per skill, one per line).
Ctrl+C stops the run and still prints what finished; finished results stay cached.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path
from typing import Any, TextIO

import httpx

from studio.agent.approval import Approver, AutoApprover, DenyAllApprover
from studio.agent.loop import DEFAULT_MAX_ROUNDS
from studio.agent.session import SessionFactory, SessionSettings
from studio.commands.arguments import positive
from studio.commands.chat import parse_options
from studio.commands.guidance import guided_flag
from studio.evals.cache import ResultCache, skill_hash
from studio.evals.files import EvalFileError, read_evals, read_triggers
from studio.evals.report import SkillReport, pass_counts, pass_rate
from studio.evals.runner import EvalError, EvalRunner
from studio.llm.client import BACKENDS
from studio.llm.errors import LLMError
from studio.llm.transport import checked_url
from studio.paths import data_dir
from studio.policy import AuditLog, Grants
from studio.skills.summary import SkillSummary
from studio.skills.targets import collect

EXIT_INTERRUPTED = 130


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="measure whether skills trigger and do their job on a local model",
        description="Run each skill's evals/triggers.json (does the model pick the skill?) and "
        "evals/evals.json (does the job get done?) on a local model, through the same chat, "
        "tool policy and sandbox as `studio chat`.",
    )
    parser.add_argument("skills", nargs="+", type=Path, metavar="SKILL",
                        help="a skill's folder (or a folder of skills)")
    parser.add_argument("--backend", choices=BACKENDS, default="ollama")
    parser.add_argument("--url", help="the server's URL (default: the backend's usual one)")
    parser.add_argument("--model", default="",
                        help="the model's name; for --backend embedded a .gguf file")
    parser.add_argument("--grader-model", default="",
                        help="the model that grades sentence expectations (default: --model)")
    parser.add_argument("--runs", type=positive, default=1, help="runs per query and eval")
    parser.add_argument("--without-skill", action="store_true",
                        help="also run the evals with the skill left out, side by side")
    parser.add_argument("--distractors", action="append", type=Path, default=[], metavar="PATH",
                        help="skills to put in the trigger catalog instead of the skill's "
                        "neighbours in its folder (repeatable)")
    parser.add_argument("--only", choices=("triggers", "evals"),
                        help="run only the trigger queries or only the outcome evals")
    parser.add_argument("--approve", choices=("auto", "deny"), default="auto",
                        help="what to answer when the policy asks about a command: auto runs it "
                        "in the sandbox (blocked stays blocked), deny refuses (default: auto)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a sampling option for the server, e.g. temperature=0 (repeatable)")
    parser.add_argument("--max-rounds", type=positive, default=DEFAULT_MAX_ROUNDS)
    guided_flag(parser)
    parser.add_argument("--no-cache", action="store_true",
                        help="run everything again instead of reusing unchanged results")
    parser.add_argument("--json", action="store_true", help="print one JSON report per skill")
    parser.set_defaults(handler=run)



def _targets(paths: list[Path], err: TextIO) -> list[tuple[SkillSummary, list[SkillSummary]]]:
    """Each skill with the catalog it is tried in: the skills of its own folder's parent."""
    found: list[tuple[SkillSummary, list[SkillSummary]]] = []
    for path in paths:
        collected = collect([path])
        for problem in collected.problems:
            err.write(f"studio eval: {problem}\n")
        for skill in collected.skills:
            if not skill.loadable or skill.read_only:
                err.write(f"studio eval: {skill.directory} is skipped: "
                          + ("it lives in an archive" if skill.read_only
                             else "it would not load; run `studio validate` on it") + "\n")
                continue
            neighbours = [s for s in collect([skill.directory.parent]).skills if s.loadable]
            found.append((skill, neighbours or [skill]))
    return found


async def evaluate(args: argparse.Namespace, reports: list[SkillReport], err: TextIO,
                   approver: Approver) -> None:
    """Fill `reports`, one per skill, as results arrive."""
    url = checked_url(args.url) if args.url else ""
    settings = SessionSettings(backend=args.backend, url=url, model=args.model,
                               max_rounds=args.max_rounds, options=parse_options(args.option),
                               guided=args.guided)
    distractors = [s for s in collect(list(args.distractors)).skills if s.loadable] \
        if args.distractors else None
    cache = None if args.no_cache else ResultCache()

    def progress(message: str) -> None:
        err.write(f"studio eval: {message}\n")
        err.flush()

    async with httpx.AsyncClient() as http:
        factory = SessionFactory(approver, http, grants=Grants(), audit=AuditLog(data_dir() / "audit.jsonl"))
        runner = EvalRunner(factory, settings, cache=cache, grader_model=args.grader_model,
                            progress=progress)
        try:
            for target, neighbours in _targets(list(args.skills), err):
                report = SkillReport(target.display_name, skill_hash(target.directory), runner.model_id)
                reports.append(report)
                await _evaluate_one(args, runner, report, target, distractors, neighbours)
        finally:
            await factory.close()


async def _evaluate_one(args: argparse.Namespace, runner: EvalRunner, report: SkillReport,
                        target: SkillSummary, distractors: list[SkillSummary] | None,
                        neighbours: list[SkillSummary]) -> None:
    try:
        triggers = read_triggers(target.directory) if args.only != "evals" else None
        evals = read_evals(target.directory) if args.only != "triggers" else None
    except EvalFileError as exc:
        report.problems.append(str(exc))
        return
    if triggers is None and evals is None:
        report.problems.append(f"{target.directory} has no evals/triggers.json or evals/evals.json")
        return
    try:
        if triggers:
            catalog = [target, *(s for s in distractors if s.directory != target.directory)] \
                if distractors is not None else neighbours
            await runner.triggers(target, catalog, triggers, args.runs, report)
        if evals is not None and evals.evals:
            await runner.outcomes(target, [target], evals.evals, args.runs, report, report.evals,
                                  "with")
            if args.without_skill:
                report.without_skill = []
                await runner.outcomes(target, [], evals.evals, args.runs, report,
                                      report.without_skill, "without")
    except (EvalError, LLMError) as exc:
        report.problems.append(exc.user_message if isinstance(exc, LLMError) else str(exc))


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def render(report: SkillReport, out: TextIO) -> None:
    out.write(f"{report.skill} (hash {report.skill_hash}) on {report.model}"
              + (" - stopped before the end" if report.cancelled else "") + "\n")
    for problem in report.problems:
        out.write(f"  problem: {problem}\n")
    if report.trigger is not None:
        trigger = report.trigger
        out.write(f"  triggers: precision {_percent(trigger.precision)}, recall "
                  f"{_percent(trigger.recall)} over {len(trigger.queries)} query runs\n")
        if trigger.runs > 1:
            spread = trigger.spread()
            out.write("  over " + str(trigger.runs) + " runs: " + "; ".join(
                f"{name} {_percent(figure.mean)} ± {_percent(figure.stdev)} "
                f"(from {_percent(min(figure.values, default=None))} to "
                f"{_percent(max(figure.values, default=None))})"
                for name, figure in spread.items()) + "\n")
        for miss in trigger.confusion:
            what = "missed" if miss.should_trigger else f"picked wrongly ({miss.first_call or 'no tool'})"
            out.write(f"    {what}: {miss.query}\n")
    if report.evals:
        without = {(r.id, r.run): r for r in report.without_skill or []}
        out.write(f"  evals: {_percent(pass_rate(report.evals))} passed"
                  + (f" (without the skill: {_percent(pass_rate(report.without_skill or []))})"
                     if report.without_skill is not None else "") + "\n")
        if any(runs > 1 for _, runs in pass_counts(report.evals).values()):
            without_counts = pass_counts(report.without_skill or [])
            for case, (passed, runs) in pass_counts(report.evals).items():
                counted = without_counts.get(case)
                out.write(f"    {case}: passed {passed}/{runs} runs"
                          + (f" | without: {counted[0]}/{counted[1]}" if counted else "") + "\n")
        for result in report.evals:
            line = (f"    {result.id} run {result.run}: {'pass' if result.passed else 'FAIL'}, "
                    f"{result.rounds} rounds, {result.seconds:.1f} s")
            other = without.get((result.id, result.run))
            if other is not None:
                line += f" | without: {'pass' if other.passed else 'FAIL'}, {other.seconds:.1f} s"
            out.write(line + "\n")
            for verdict in result.expectations:
                if not verdict.passed:
                    out.write(f"      failed ({verdict.how}): {verdict.text}: {verdict.reason}\n")
    if report.cached:
        out.write(f"  {report.cached} results reused from the cache (--no-cache runs them again)\n")


def _print(reports: list[SkillReport], as_json: bool, out: TextIO) -> None:
    for report in reports:
        if as_json:
            out.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
        else:
            render(report, out)
    out.flush()


def _exit_code(reports: list[SkillReport]) -> int:
    return 1 if not reports or any(r.problems for r in reports) else 0


async def _until_signalled(args: argparse.Namespace, reports: list[SkillReport], err: TextIO,
                           approver: Approver) -> None:
    """SIGTERM stops the run like Ctrl+C: the running command's process group goes with it."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    await evaluate(args, reports, err, approver)


def run(args: argparse.Namespace) -> int:
    approver: Approver = AutoApprover() if args.approve == "auto" else DenyAllApprover()
    reports: list[SkillReport] = []
    try:
        asyncio.run(_until_signalled(args, reports, sys.stderr, approver))
    except (KeyboardInterrupt, asyncio.CancelledError):
        for report in reports[-1:]:
            report.cancelled = True
        sys.stderr.write("studio eval: stopped; what finished is below and stays cached\n")
        _print(reports, args.json, sys.stdout)
        return EXIT_INTERRUPTED
    except LLMError as exc:
        sys.stderr.write(f"studio eval: {exc.user_message}\n")
        return 1
    _print(reports, args.json, sys.stdout)
    return _exit_code(reports)

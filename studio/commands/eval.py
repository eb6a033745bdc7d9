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
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import httpx

from studio.agent import (
    DEFAULT_MAX_ROUNDS,
    Approver,
    AutoApprover,
    DenyAllApprover,
    SessionSettings,
)
from studio.commands.arguments import positive
from studio.commands.options import (
    SKILL_SOURCE_HELP,
    guided_flag,
    option_flag,
    parse_options,
    served_consent_flag,
    skill_source,
)
from studio.commands.served import skill_paths
from studio.commands.sessions import session_factories
from studio.evals import (
    EvalRunner,
    IterationError,
    ResultCache,
    RunPlan,
    ServerPool,
    SkillReport,
    analysis_notes,
    comparison_summary,
    deltas,
    pass_counts,
    pass_rate,
    percent,
    read_iteration,
    report_of,
    run_skill,
    save_iteration,
    skill_hash,
    write_feedback,
)
from studio.llm import BACKENDS, LLMError, checked_url
from studio.settings import load_settings
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles
from studio.skills.scan import Collected, scan

EXIT_INTERRUPTED = 130


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="measure whether skills trigger and do their job on a local model",
        description="Run each skill's evals/triggers.json (does the model pick the skill?) and "
        "evals/evals.json (does the job get done?) on a local model, through the same chat, "
        "tool policy and sandbox as `studio chat`.",
    )
    parser.add_argument("skills", nargs="+", type=skill_source, metavar="SKILL",
                        help="a skill's folder (or a folder of skills); with --conflicts also "
                        "a zip or an MCP server (mcp+http://... or 'mcp+stdio:COMMAND ARGS')")
    served_consent_flag(parser)
    parser.add_argument("--backend", choices=BACKENDS, default="ollama")
    parser.add_argument("--url", help="the server's URL (default: the backend's usual one)")
    parser.add_argument("--server", action="append", default=[], metavar="URL",
                        help="another server with the same model to spread the runs over "
                        "(repeatable, with or without --url); a server that fails is dropped "
                        "and its runs go to the others")
    parser.add_argument("--trigger-threshold", type=_share, default=0.5, metavar="RATE",
                        help="a query counts as triggered when the skill is picked in at least this "
                        "share of its runs (default: 0.5)")
    parser.add_argument("--early-stop", action="store_true",
                        help="stop a query's runs once its outcome at the threshold cannot change")
    parser.add_argument("--baseline", metavar="REF",
                        help="also run the evals on the skill as the git ref REF has it (HEAD, "
                        "a tag, a commit), and show the change in pass rate, time and tokens")
    parser.add_argument("--compare", action="store_true",
                        help="with --baseline or --without-skill: a grader model compares each "
                        "answer with the baseline's blind (not told which is which)")
    parser.add_argument("--save-iteration", nargs="?", const="", default=None, type=str,
                        metavar="DIR",
                        help="write the outcome evals as the next iteration-N/ of the skill's "
                        "workspace (grading.json, timing.json, benchmark.json, as skill-creator's "
                        "viewer reads them): beside the skill as NAME-workspace, or in "
                        "DIR/NAME-workspace")
    parser.add_argument("--feedback", nargs=2, metavar=("ID", "NOTE"),
                        help="keep a review note on eval ID in the skill's evals/feedback.json "
                        "(shown at every run until cleared with an empty NOTE); runs nothing")
    parser.add_argument("--generate-triggers", action="store_true",
                        help="have the model write trigger queries for each SKILL (half that "
                        "should load it, half near misses from its neighbours) and choose which to "
                        "add to evals/triggers.json")
    parser.add_argument("--count", type=positive, default=20, metavar="N",
                        help="with --generate-triggers: about N queries (default: 20)")
    parser.add_argument("--write", action="store_true",
                        help="with --generate-triggers: keep every query without asking")
    parser.add_argument("--conflicts", action="store_true",
                        help="the SKILL arguments are libraries: report skills a model will confuse "
                        "(overlapping descriptions, and trigger queries of one skill that load "
                        "another)")
    parser.add_argument("--descriptions-only", action="store_true",
                        help="with --conflicts: compare descriptions only, ask no model")
    parser.add_argument("--no-embed", action="store_true",
                        help="with --conflicts: compare descriptions by words only, even when the "
                        "local embedding model is installed")
    parser.add_argument("--show-iteration", action="store_true",
                        help="the SKILL arguments are iteration-N folders (the studio's or "
                        "skill-creator's): print their figures instead of running anything")
    parser.add_argument("--per-server", type=positive, default=1, metavar="N",
                        help="runs given to one server at a time (default: 1)")
    parser.add_argument("--model", default="",
                        help="the model's name; for --backend embedded a .gguf file")
    parser.add_argument("--grader-model", default="",
                        help="the model that grades sentence expectations (default: --model)")
    parser.add_argument("--runs", type=positive, default=1, help="runs per query and eval")
    parser.add_argument("--without-skill", action="store_true",
                        help="also run the evals with the skill left out, side by side")
    parser.add_argument("--distractors", action="append", type=skill_source, default=[],
                        metavar="PATH",
                        help="skills to put in the trigger catalog instead of the skill's "
                        f"neighbours in its folder (repeatable): {SKILL_SOURCE_HELP}")
    parser.add_argument("--only", choices=("triggers", "evals"),
                        help="run only the trigger queries or only the outcome evals")
    parser.add_argument("--approve", choices=("auto", "deny"), default="auto",
                        help="what to answer when the policy asks about a command: auto runs it "
                        "in the sandbox (blocked stays blocked), deny refuses (default: auto)")
    option_flag(parser, "a sampling option for the server, e.g. temperature=0 (repeatable)")
    parser.add_argument("--max-rounds", type=positive, default=DEFAULT_MAX_ROUNDS)
    guided_flag(parser)
    parser.add_argument("--no-cache", action="store_true",
                        help="run everything again instead of reusing unchanged results")
    parser.add_argument("--json", action="store_true", help="print one JSON report per skill")
    parser.set_defaults(handler=run)



def _targets(paths: list[Path], err: TextIO) -> list[tuple[SkillSummary, list[SkillSummary]]]:
    """Each skill with the catalog it is tried in: the skills of its own folder's parent. Each
    folder is scanned once: a folder of skills given is its skills' parent, and skills that
    share a parent share its scan."""
    scanned: dict[Path, Collected] = {}

    def scan_once(folder: Path) -> Collected:
        key = folder.absolute()
        if key not in scanned:
            scanned[key] = scan([folder])
        return scanned[key]

    found: list[tuple[SkillSummary, list[SkillSummary]]] = []
    for path in paths:
        collected = scan_once(path)
        for problem in collected.problems:
            err.write(f"studio eval: {problem}\n")
        for skill in collected.skills:
            if not skill.loadable or skill.read_only:
                err.write(f"studio eval: {skill.directory} is skipped: "
                          + ("it lives in an archive" if skill.read_only
                             else "it would not load; run `studio validate` on it") + "\n")
                continue
            neighbours = [s for s in scan_once(skill.directory.parent).skills if s.loadable]
            found.append((skill, neighbours or [skill]))
    return found


async def evaluate(args: argparse.Namespace, reports: list[SkillReport], err: TextIO,
                   approver: Approver) -> None:
    """Fill `reports`, one per skill, as results arrive."""
    urls = [checked_url(url) for url in ([args.url] if args.url else []) + list(args.server)]
    settings = SessionSettings(backend=args.backend, url=urls[0] if urls else "", model=args.model,
                               max_rounds=args.max_rounds, options=parse_options(args.option),
                               guided=args.guided, guided_write=args.guided_write)
    distractors = [s for s in scan(list(args.distractors)).skills if s.loadable] \
        if args.distractors else None
    cache = None if args.no_cache else ResultCache()

    def progress(message: str) -> None:
        err.write(f"studio eval: {message}\n")
        err.flush()

    async with httpx.AsyncClient() as http:
        factories = session_factories(approver, http, max(1, len(urls)))
        runners = [EvalRunner(factory, replace(settings, url=url) if urls else settings,
                              cache=cache, grader_model=args.grader_model, progress=progress)
                   for factory, url in zip(factories, urls or [""], strict=True)]
        runner: EvalRunner | ServerPool = (
            ServerPool(runners, args.per_server) if len(runners) > 1 or args.per_server > 1
            else runners[0])
        try:
            if isinstance(runner, ServerPool):
                # Every skill at once: the pool keeps each server to its share of runs, and a
                # skill whose runs are few does not leave the other servers idle.
                jobs = []
                for target, neighbours in _targets(list(args.skills), err):
                    report = SkillReport(target.display_name, skill_hash(target.directory),
                                         runner.model_id)
                    reports.append(report)
                    jobs.append(_evaluate_one(args, runner, report, target, distractors, neighbours))
                await asyncio.gather(*jobs)
                return
            failed = ""
            for target, neighbours in _targets(list(args.skills), err):
                report = SkillReport(target.display_name, skill_hash(target.directory), runner.model_id)
                reports.append(report)
                if failed:
                    report.problems.append(f"not run: the model server failed earlier ({failed})")
                    continue
                failed = await _evaluate_one(args, runner, report, target, distractors, neighbours)
        finally:
            for factory in factories:
                await factory.close()


async def _evaluate_one(args: argparse.Namespace, runner: EvalRunner | ServerPool, report: SkillReport,
                        target: SkillSummary, distractors: list[SkillSummary] | None,
                        neighbours: list[SkillSummary]) -> str:
    """Run one skill into `report` (see `plan.run_skill`); returns why the server failed ("" when
    it did not). With --save-iteration, what finished is written either way."""
    catalog = [target, *(s for s in distractors if s.directory != target.directory)] \
        if distractors is not None else neighbours
    plan = RunPlan(runs=args.runs, threshold=args.trigger_threshold, early_stop=args.early_stop,
                   without_skill=args.without_skill, baseline=args.baseline or "",
                   compare=args.compare, only=args.only, grader_model=args.grader_model)
    failed = await run_skill(runner, plan, report, target, catalog)
    if args.save_iteration is not None and report.evals:
        into = Path(args.save_iteration) if args.save_iteration else None
        try:
            report.notes.append(f"results written to {save_iteration(report, target, into)}")
        except OSError as exc:
            report.problems.append(f"the iteration could not be written: {exc.strerror or exc}")
    return failed


def _set_feedback(skills: list[Path], eval_id: str, note: str) -> int:
    for skill in skills:
        try:
            write_feedback(skill, eval_id, note)
        except (evalfiles.EvalFileError, OSError) as exc:
            print(f"studio eval: {exc}", file=sys.stderr)
            return 2
        print(f"{skill / 'evals' / 'feedback.json'}: eval {eval_id} "
              + ("note kept" if note.strip() else "note cleared"))
    return 0


def _show_iterations(folders: list[Path], out: TextIO, err: TextIO) -> int:
    code = 0
    for folder in folders:
        try:
            iteration = read_iteration(folder)
        except IterationError as exc:
            err.write(f"studio eval: {exc}\n")
            code = 2
            continue
        out.write(f"{folder}\n")
        for configuration, results in iteration.results.items():
            tokens = [r.tokens for r in results]
            out.write(f"  {configuration}: {percent(pass_rate(results))} of {len(results)} runs "
                      f"passed, {sum(r.seconds for r in results) / len(results):.1f} s and "
                      f"{sum(tokens) / len(tokens):,.0f} tokens a run\n")
            for result in results:
                failed = [v for v in result.expectations if not v.passed]
                out.write(f"    eval {result.id} run {result.run}: "
                          f"{'pass' if result.passed else 'FAIL'}"
                          + "".join(f"\n      failed: {v.text}: {v.reason}" for v in failed) + "\n")
        if iteration.comparisons:
            out.write(f"  {comparison_summary(report_of(iteration, folder.name))}\n")
    return code


def _share(text: str) -> float:
    """A share from 0 to 1 (`--trigger-threshold`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError("a share is a number above 0 and at most 1, such as 0.5")
    return value


def render(report: SkillReport, out: TextIO) -> None:
    out.write(f"{report.skill} (hash {report.skill_hash}) on {report.model}"
              + (" - stopped before the end" if report.cancelled else "") + "\n")
    for problem in report.problems:
        out.write(f"  problem: {problem}\n")
    if report.trigger is not None:
        trigger = report.trigger
        out.write(f"  triggers: precision {percent(trigger.precision)}, recall "
                  f"{percent(trigger.recall)} over {len(trigger.queries)} query runs\n")
        if trigger.runs > 1:
            spread = trigger.spread()
            out.write("  over " + str(trigger.runs) + " runs: " + "; ".join(
                f"{name} {percent(figure.mean)} ± {percent(figure.stdev)} "
                f"(from {percent(min(figure.values, default=None))} to "
                f"{percent(max(figure.values, default=None))})"
                for name, figure in spread.items()) + "\n")
        if trigger.runs > 1:
            rates = trigger.rates()
            out.write(f"  per query (triggered at a rate of {trigger.threshold:.0%} or more): "
                      f"{sum(r.passed for r in rates)} of {len(rates)} right, precision "
                      f"{percent(trigger.query_precision)}, recall {percent(trigger.query_recall)}\n")
            for rate in rates:
                expected = "should trigger" if rate.should_trigger else "should not"
                out.write(f"    [{'PASS' if rate.passed else 'FAIL'}] {rate.triggers}/{rate.runs} "
                          f"{expected}: {rate.query}\n")
        for miss in trigger.confusion:
            what = "missed" if miss.should_trigger else f"picked wrongly ({miss.choice})"
            out.write(f"    {what}: {miss.query}\n")
    if report.evals:
        without = {(r.id, r.run): r for r in report.without_skill or []}
        out.write(f"  evals: {percent(pass_rate(report.evals))} passed"
                  + (f" (without the skill: {percent(pass_rate(report.without_skill or []))})"
                     if report.without_skill is not None else "") + "\n")
        if report.comparisons:
            out.write(f"    {comparison_summary(report)}\n")
        for label, baseline in ((f"against {report.old_ref}", report.old_skill),
                                ("against no skill", report.without_skill)):
            if baseline:
                out.write(f"    {label}: {deltas(report.evals, baseline)}\n")
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
            note = report.feedback.get(result.id)
            if note and result.run == 1:
                out.write(f"      your review note: {note}\n")
            for verdict in result.expectations:
                if not verdict.passed:
                    out.write(f"      failed ({verdict.how}): {verdict.text}: {verdict.reason}\n")
    for note in analysis_notes(report):
        out.write(f"  analysis: {note}\n")
    for note in report.notes:
        out.write(f"  {note}\n")
    if report.cached:
        out.write(f"  {report.cached} results reused from the cache (--no-cache runs them again)\n")


def _print(reports: list[SkillReport], as_json: bool, out: TextIO) -> None:
    for report in reports:
        if as_json:
            data = report.to_json()
            notes = analysis_notes(report)
            if notes:
                data["analysis"] = notes
            out.write(json.dumps(data, ensure_ascii=False) + "\n")
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
    if args.show_iteration:
        return _show_iterations(args.skills, sys.stdout, sys.stderr)
    if args.feedback:
        return _set_feedback(args.skills, *args.feedback)
    # A served skill lives in a read-only archive: it is a neighbour or a distractor in the
    # catalog, or one of a library whose --conflicts are reported; its own evals are not run.
    roots = skill_paths("eval", args, [*args.skills, *args.distractors])
    given = len(args.skills)
    resolved = iter(roots.paths)
    args.skills = [next(resolved) for value in args.skills if roots.gave_path(value)]
    args.distractors = list(resolved)
    if given and not args.skills:
        return 2
    if args.generate_triggers:
        from studio.commands import eval_generate

        return eval_generate.run(args)
    if args.conflicts:
        from studio.commands import eval_conflicts

        return eval_conflicts.run(args)
    approver: Approver = (
        AutoApprover(unsandboxed=load_settings().settings.sandbox.allow_unsandboxed)
        if args.approve == "auto" else DenyAllApprover())
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

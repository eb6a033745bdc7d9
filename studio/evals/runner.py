"""Running a skill's trigger queries and outcome evals through the core chat session.

A trigger query puts the skill in a catalog with its neighbours and stops the turn at the
model's first tool decision: only the choice is measured, so a query costs one model reply. An
outcome eval runs the whole chat (the policy judges every command, the sandbox runs it, the
approver answers what the policy asks) in a fresh copy of the skill, with the eval's files
copied in beside its SKILL.md, then grades each expectation. Each result is cached as soon as it is known.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from studio.agent import (
    ACTIVATE,
    ChatNotice,
    Done,
    Error,
    Event,
    SessionFactory,
    SessionSettings,
    ToolCallRequested,
)
from studio.errors import StudioError
from studio.evals.cache import ResultCache, key_of
from studio.evals.checks import Verdict, check
from studio.evals.grader import grade
from studio.evals.report import EvalResult, QueryResult, SkillReport, TriggerReport, decided
from studio.evals.trace import Trace
from studio.llm import LLMError
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles

# What the guided mode adds to a result's cache key: "guided" for on, as before there was auto.
_GUIDED_KEYS: dict[str, tuple[str, ...]] = {"on": ("guided",), "auto": ("guided-auto",), "off": ()}

Progress = Callable[[str], None]


def _quiet(message: str) -> None:
    del message


class EvalRunner:
    """Runs evals with one session factory (one model server, approver, grants and audit log).

    Attributes:
        settings: the model and the tools' limits; each run gets its own temp workspace.
        cache: where results are kept (None: never read nor written).
        grader_model: the model that grades sentence expectations ("" for the one under test).
    """

    def __init__(self, factory: SessionFactory, settings: SessionSettings, *,
                 cache: ResultCache | None = None, grader_model: str = "",
                 progress: Progress = _quiet, identity: str = "") -> None:
        self.factory = factory
        self.settings = settings
        self.cache = cache
        self.grader_model = grader_model
        self.progress = progress
        self.identity = identity

    @property
    def model_id(self) -> str:
        """The model the results are of, in reports and cache keys: `identity` when several
        servers share the work (a result does not depend on which of them gave it)."""
        if self.identity:
            return self.identity
        settings = self.settings
        return f"{settings.backend}:{settings.model or '(first)'}@{settings.url or 'default'}"

    def _cache_key(self, report: SkillReport, *parts: Any) -> str:
        settings = self.settings
        return key_of(report.skill_hash, self.model_id, sorted(dict(settings.options).items()),
                      settings.max_rounds, *_GUIDED_KEYS[settings.guided],
                      *(("guided-write",) if settings.guided_write and settings.guided != "off" else ()),
                      *parts)

    async def triggers(self, target: SkillSummary, catalog: Sequence[SkillSummary],
                       queries: Sequence[evalfiles.TriggerQuery], runs: int, report: SkillReport, *,
                       threshold: float = 0.5, early_stop: bool = False) -> None:
        """Fill `report.trigger` query by query and run by run; with `early_stop`, a query's runs
        stop once its outcome at `threshold` cannot change."""
        trigger = report.trigger = TriggerReport(runs, threshold=threshold)
        units = trigger_units(queries, runs)
        for number, (query, run) in enumerate(units, 1):
            if early_stop and query_decided(trigger, query, runs):
                continue
            trigger.queries.append(await self.trigger_run(target, catalog, query, run, report,
                                                          f"{number}/{len(units)}"))

    async def trigger_run(self, target: SkillSummary, catalog: Sequence[SkillSummary],
                          query: evalfiles.TriggerQuery, run: int, report: SkillReport,
                          counter: str = "") -> QueryResult:
        """One run of one trigger query: from the cache, or asked of the model and cached."""
        name = target.display_name
        shown = [(s.display_name, s.description) for s in catalog]
        key = self._cache_key(report, "trigger", shown, query.query, run)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            report.cached += 1
            return QueryResult.from_json(cached)
        self.progress(f"{name}: trigger {counter}: {query.query[:60]}")
        trace = Trace()
        called, skill, error = await self._first_tool(catalog, query.query, trace)
        # Only activating the skill counts: reading one of its files or running one of its
        # scripts first is not the model choosing it from the catalog.
        activated = called == ACTIVATE and skill == name
        result = QueryResult(query.query, query.should_trigger, run, activated, called,
                             skill or "", error, trace.to_json())
        if self.cache is not None:
            self.cache.put(key, result.to_json())
        return result

    async def _first_tool(self, catalog: Sequence[SkillSummary], prompt: str,
                          trace: Trace) -> tuple[str, str | None, str]:
        """The first tool the model calls for `prompt`, the skill it names, and why the turn
        ended without a choice ("" when it made one); ("", None, "") when it answers without a
        tool. A first call that cannot run as written (another skill, one that does not exist)
        is the model's choice all the same. The turn stops at the choice: nothing runs. Only a
        server failure raises (EvalError): that says nothing about the model. `trace` keeps the
        run's transcript."""
        with tempfile.TemporaryDirectory(prefix="studio-eval-") as folder:
            settings = replace(self.settings, workspace=Path(folder), workspace_mode="project")
            session = self.factory.session(settings, catalog)
            trace.start(prompt)
            events = cast(AsyncGenerator[Event, None], session.turn(prompt))
            error: Error | None = None
            async with contextlib.aclosing(events):
                async for event in events:
                    trace.add(event)
                    if isinstance(event, ChatNotice) and event.invalid_call is not None:
                        return event.invalid_call[0], event.invalid_call[1], ""
                    if isinstance(event, ToolCallRequested):
                        return event.tool, event.skill, ""
                    if isinstance(event, Error):
                        error = event
                    if isinstance(event, Done) and event.reason == "error":
                        if error is None or error.cause == "server":
                            raise EvalError(error.message if error is not None
                                            else event.text or "the model server failed")
                        return "", None, error.message
        return "", None, ""

    async def outcomes(self, target: SkillSummary, skills: Sequence[SkillSummary],
                       cases: Sequence[evalfiles.EvalCase], runs: int, report: SkillReport,
                       results: list[EvalResult], label: str) -> None:
        """Run each eval `runs` times with `skills` in the catalog, appending to `results`."""
        units = eval_units(cases, runs)
        for number, (case, run) in enumerate(units, 1):
            results.append(await self.outcome_run(target, skills, case, run, report, label,
                                                   f"{number}/{len(units)}"))

    async def outcome_run(self, target: SkillSummary, skills: Sequence[SkillSummary],
                          case: evalfiles.EvalCase, run: int, report: SkillReport, label: str,
                          counter: str = "") -> EvalResult:
        """One run of one eval: from the cache, or run and cached. A server that failed says
        nothing about the skill: EvalError, and this eval is tried again next time."""
        files = _file_hashes(target.directory, case.files)
        key = self._cache_key(report, label, [s.display_name for s in skills], case.to_json(),
                              files, self.grader_model, run)
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            report.cached += 1
            return EvalResult.from_json(cached)
        self.progress(f"{target.display_name}: eval {case.id} ({label}) {counter}")
        result, server_failure = await self._outcome(target.directory, skills, case, run)
        if server_failure is not None:
            raise EvalError(server_failure)
        if self.cache is not None:
            self.cache.put(key, result.to_json())
        return result

    async def _outcome(self, skill_dir: Path, skills: Sequence[SkillSummary], case: evalfiles.EvalCase,
                       run: int) -> tuple[EvalResult, str | None]:
        """The eval's result, and the server's failure when the turn ended in one (None when the
        model answered, or its reply was unusable: then the eval fails with that reason)."""
        trace = Trace()
        server_failure: str | None = None
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="studio-eval-") as folder:
            workspace = Path(folder)
            if skills:
                # A copy of the skill is both the workspace and the folder its scripts run in:
                # the eval's files are there by name, and no run can change the author's skill.
                workspace = workspace / skill_dir.name
                shutil.copytree(skill_dir, workspace, symlinks=True, ignore=_special_files)
                skills = [_copied(skill, workspace) for skill in skills if skill.directory == skill_dir]
            _copy_files(skill_dir, case.files, workspace)
            settings = replace(self.settings, workspace=workspace,
                               workspace_mode="skill" if skills else "project")
            session = self.factory.session(settings, skills)
            trace.start(case.prompt)
            events = cast(AsyncGenerator[Event, None], session.turn(case.prompt))
            async with contextlib.aclosing(events):
                async for event in events:
                    trace.add(event)
                    if isinstance(event, Error) and event.cause == "server":
                        server_failure = event.message
        seconds = time.monotonic() - started
        if trace.outcome == "error":
            reason = "the model's turn ended in an error: " + "; ".join(trace.errors)
            verdicts = [Verdict(expectation.text, False, expectation.kind, reason)
                        for expectation in case.expectations]
        else:
            verdicts = [await self._grade(expectation.kind, expectation.text, case, trace)
                        if expectation.kind == "model" else check(expectation, trace)
                        for expectation in case.expectations]
        return EvalResult(case.id, run, tuple(verdicts), trace.rounds, seconds, trace.outcome,
                          trace.to_json(), trace.prompt_tokens,
                          trace.completion_tokens), server_failure

    async def _grade(self, kind: str, text: str, case: evalfiles.EvalCase, trace: Trace) -> Verdict:
        del kind
        if trace.outcome == "error":
            return Verdict(text, False, "model", "the run failed before an answer: "
                           + "; ".join(trace.errors))
        try:
            client, model = await self.factory.server.open(self.grader_model or self.settings.model)
        except LLMError as exc:
            return Verdict(text, False, "model", f"the grader could not be reached: {exc.user_message}")
        return await grade(client, model, text, case.prompt, trace, dict(self.settings.options))


def _copied(skill: SkillSummary, folder: Path) -> SkillSummary:
    """`skill` as its copy in `folder` is: the same files, so the same summary at another path,
    without scanning the copy again."""
    return replace(skill, root=folder.parent, directory=folder,
                   skill_file=folder / skill.skill_file.relative_to(skill.directory))


class EvalError(StudioError):
    """The model server failed; the run cannot go on."""


def trigger_units(queries: Sequence[evalfiles.TriggerQuery],
                  runs: int) -> list[tuple[evalfiles.TriggerQuery, int]]:
    """Every run of every query, in the order a serial run takes them (and reports them)."""
    return [(query, run) for query in queries for run in range(1, runs + 1)]


def query_decided(trigger: TriggerReport, query: evalfiles.TriggerQuery, runs: int) -> bool:
    """Whether the runs of `query` so far settle its outcome (see `report.decided`)."""
    done = [q for q in trigger.queries if q.query == query.query]
    return decided(sum(q.triggered for q in done), len(done), runs, trigger.threshold)


def eval_units(cases: Sequence[evalfiles.EvalCase], runs: int) -> list[tuple[evalfiles.EvalCase, int]]:
    return [(case, run) for case in cases for run in range(1, runs + 1)]


def _special_files(folder: str, names: list[str]) -> set[str]:
    """FIFOs, sockets and devices: opening a FIFO to copy it would wait forever."""
    return {name for name in names
            if not (os.path.islink(path := os.path.join(folder, name))
                    or os.path.isfile(path) or os.path.isdir(path))}


def _copy_files(skill_dir: Path, files: Sequence[str], workspace: Path) -> None:
    """Copy each eval file into the workspace under its own name, where the prompt can name it."""
    for relative in files:
        source = skill_dir / relative
        if source.is_symlink() or not source.is_file():
            raise EvalError(f"the eval's file {relative} is not a file in {skill_dir}")
        shutil.copyfile(source, workspace / Path(relative).name)


def _file_hashes(skill_dir: Path, files: Sequence[str]) -> list[str]:
    hashes = []
    for relative in files:
        try:
            hashes.append(hashlib.sha256((skill_dir / relative).read_bytes()).hexdigest())
        except OSError:
            hashes.append("missing")
    return hashes

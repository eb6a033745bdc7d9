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

from studio.agent.events import Done, Event, ToolCallRequested
from studio.agent.session import SessionFactory, SessionSettings
from studio.agent.tools import ACTIVATE
from studio.evals.cache import ResultCache, key_of
from studio.evals.checks import Verdict, check
from studio.evals.files import EvalCase, TriggerQuery
from studio.evals.grader import grade
from studio.evals.report import EvalResult, QueryResult, SkillReport, TriggerReport
from studio.evals.trace import Trace
from studio.llm.errors import LLMError
from studio.skills.library import SkillRoot, scan_root
from studio.skills.summary import SkillSummary

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
                 progress: Progress = _quiet) -> None:
        self.factory = factory
        self.settings = settings
        self.cache = cache
        self.grader_model = grader_model
        self.progress = progress

    @property
    def model_id(self) -> str:
        settings = self.settings
        return f"{settings.backend}:{settings.model or '(first)'}@{settings.url or 'default'}"

    def _cache_key(self, report: SkillReport, *parts: Any) -> str:
        settings = self.settings
        return key_of(report.skill_hash, self.model_id, sorted(dict(settings.options).items()),
                      settings.max_rounds, *_GUIDED_KEYS[settings.guided], *parts)

    async def triggers(self, target: SkillSummary, catalog: Sequence[SkillSummary],
                       queries: Sequence[TriggerQuery], runs: int, report: SkillReport) -> None:
        """Fill `report.trigger` query by query and run by run."""
        trigger = report.trigger = TriggerReport(runs)
        name = target.display_name
        shown = [(s.display_name, s.description) for s in catalog]
        total = len(queries) * runs
        for number, (query, run) in enumerate(((q, r) for q in queries for r in range(1, runs + 1)), 1):
            key = self._cache_key(report, "trigger", shown, query.query, run)
            cached = self.cache.get(key) if self.cache is not None else None
            if cached is not None:
                result = QueryResult.from_json(cached)
                report.cached += 1
            else:
                self.progress(f"{name}: trigger {number}/{total}: {query.query[:60]}")
                trace = Trace()
                called, skill = await self._first_tool(catalog, query.query, trace)
                # Only activating the skill counts: reading one of its files or running one of
                # its scripts first is not the model choosing it from the catalog.
                activated = called == ACTIVATE and skill == name
                result = QueryResult(query.query, query.should_trigger, run, activated, called,
                                     skill or "", trace.to_json())
                if self.cache is not None:
                    self.cache.put(key, result.to_json())
            trigger.queries.append(result)

    async def _first_tool(self, catalog: Sequence[SkillSummary], prompt: str,
                          trace: Trace) -> tuple[str, str | None]:
        """The first tool the model calls for `prompt` and the skill it names; ("", None) when it
        answers without one. The turn stops there: nothing runs. `trace` keeps the run's
        transcript."""
        with tempfile.TemporaryDirectory(prefix="studio-eval-") as folder:
            settings = replace(self.settings, workspace=Path(folder), workspace_mode="project")
            session = self.factory.session(settings, catalog)
            trace.start(prompt)
            events = cast(AsyncGenerator[Event, None], session.turn(prompt))
            async with contextlib.aclosing(events):
                async for event in events:
                    trace.add(event)
                    if isinstance(event, ToolCallRequested):
                        return event.tool, event.skill
                    if isinstance(event, Done) and event.reason == "error":
                        raise EvalError(event.text or "the model server failed")
        return "", None

    async def outcomes(self, target: SkillSummary, skills: Sequence[SkillSummary],
                       cases: Sequence[EvalCase], runs: int, report: SkillReport,
                       results: list[EvalResult], label: str) -> None:
        """Run each eval `runs` times with `skills` in the catalog, appending to `results`."""
        name = target.display_name
        total = len(cases) * runs
        for number, (case, run) in enumerate(((c, r) for c in cases for r in range(1, runs + 1)), 1):
            files = _file_hashes(target.directory, case.files)
            key = self._cache_key(report, label, [s.display_name for s in skills], case.to_json(),
                                  files, self.grader_model, run)
            cached = self.cache.get(key) if self.cache is not None else None
            if cached is not None:
                results.append(EvalResult.from_json(cached))
                report.cached += 1
                continue
            self.progress(f"{name}: eval {case.id} ({label}) {number}/{total}")
            result = await self._outcome(target.directory, skills, case, run)
            # A server that failed says nothing about the skill: that run is tried again next time.
            if self.cache is not None and result.outcome != "error":
                self.cache.put(key, result.to_json())
            results.append(result)

    async def _outcome(self, skill_dir: Path, skills: Sequence[SkillSummary], case: EvalCase,
                       run: int) -> EvalResult:
        trace = Trace()
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="studio-eval-") as folder:
            workspace = Path(folder)
            if skills:
                # A copy of the skill is both the workspace and the folder its scripts run in:
                # the eval's files are there by name, and no run can change the author's skill.
                workspace = workspace / skill_dir.name
                shutil.copytree(skill_dir, workspace, symlinks=True, ignore=_special_files)
                skills = scan_root(SkillRoot(workspace.parent)).skills
            _copy_files(skill_dir, case.files, workspace)
            settings = replace(self.settings, workspace=workspace,
                               workspace_mode="skill" if skills else "project")
            session = self.factory.session(settings, skills)
            trace.start(case.prompt)
            events = cast(AsyncGenerator[Event, None], session.turn(case.prompt))
            async with contextlib.aclosing(events):
                async for event in events:
                    trace.add(event)
        seconds = time.monotonic() - started
        verdicts = [await self._grade(expectation.kind, expectation.text, case, trace)
                    if expectation.kind == "model" else check(expectation, trace)
                    for expectation in case.expectations]
        return EvalResult(case.id, run, tuple(verdicts), trace.rounds, seconds, trace.outcome,
                          trace.to_json())

    async def _grade(self, kind: str, text: str, case: EvalCase, trace: Trace) -> Verdict:
        del kind
        if trace.outcome == "error":
            return Verdict(text, False, "model", "the run failed before an answer: "
                           + "; ".join(trace.errors))
        try:
            client, model = await self.factory.server.open(self.grader_model or self.settings.model)
        except LLMError as exc:
            return Verdict(text, False, "model", f"the grader could not be reached: {exc.user_message}")
        return await grade(client, model, text, case.prompt, trace, dict(self.settings.options))


class EvalError(Exception):
    """The model server failed; the run cannot go on."""


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

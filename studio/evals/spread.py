"""Evals spread over several model servers at once: a team's GPU box running vLLM, or several
Ollama hosts, is how an author outgrows one machine.

Each server has its own `EvalRunner` (its own session factory, so its own connection) and takes at
most `per_server` runs at a time. Runs are handed out as servers become free and their results are
put back in the order a serial run gives them, and every runner shares one identity in the cache
keys, so the report is the same as a serial run's and a run cut short resumes from the cache
whichever server answers next time. A server that fails is dropped for the rest of the run and
its run goes to another; only when every server has failed does the run stop, keeping what
finished.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Generic, TypeVar

from studio.evals.report import EvalResult, QueryResult, SkillReport, TriggerReport, decided
from studio.evals.runner import EvalError, EvalRunner, eval_units, trigger_units
from studio.skills import SkillSummary
from studio.skills.checks import evalfiles

U = TypeVar("U")
R = TypeVar("R")


class ServerPool:
    """Runs evals over several runners at once, with the interface of one `EvalRunner`.

    Attributes:
        runners: one per server; their `identity` is set to the pool's.
        per_server: the most runs one server is given at a time.
        failures: why each server that failed was dropped, by its URL.
    """

    def __init__(self, runners: Sequence[EvalRunner], per_server: int = 1) -> None:
        if not runners:
            raise ValueError("a pool needs at least one server")
        self.runners = list(runners)
        self.per_server = max(1, per_server)
        first = self.runners[0].settings
        identity = f"{first.backend}:{first.model or '(first)'}@{len(self.runners)} servers"
        for runner in self.runners:
            runner.identity = identity
        self.failures: dict[str, str] = {}
        # One per server, shared by every call: skills evaluated at once still give a server no
        # more than `per_server` runs at a time.
        self._slots: list[asyncio.Semaphore] | None = None

    @property
    def model_id(self) -> str:
        return self.runners[0].model_id

    async def triggers(self, target: SkillSummary, catalog: Sequence[SkillSummary],
                       queries: Sequence[evalfiles.TriggerQuery], runs: int, report: SkillReport, *,
                       threshold: float = 0.5, early_stop: bool = False) -> None:
        """As `EvalRunner.triggers`. With `early_stop`, a query's runs not yet started when its
        outcome is settled are skipped; runs already under way still count, so a spread run
        may make a few more runs of a query than a serial one."""
        trigger = report.trigger = TriggerReport(runs, threshold=threshold)
        units = trigger_units(queries, runs)

        def run(runner: EvalRunner, number: int,
                unit: tuple[evalfiles.TriggerQuery, int]) -> Awaitable[QueryResult]:
            return runner.trigger_run(target, catalog, unit[0], unit[1], report,
                                      f"{number}/{len(units)}")

        def settled(unit: int, done: Mapping[int, QueryResult]) -> bool:
            query = units[unit][0].query
            got = [result for result in done.values() if result.query == query]
            return early_stop and decided(sum(r.triggered for r in got), len(got), runs, threshold)

        await self._spread(units, run, trigger.queries, settled)

    async def outcomes(self, target: SkillSummary, skills: Sequence[SkillSummary],
                       cases: Sequence[evalfiles.EvalCase], runs: int, report: SkillReport,
                       results: list[EvalResult], label: str) -> None:
        units = eval_units(cases, runs)

        def run(runner: EvalRunner, number: int,
                unit: tuple[evalfiles.EvalCase, int]) -> Awaitable[EvalResult]:
            return runner.outcome_run(target, skills, unit[0], unit[1], report, label,
                                      f"{number}/{len(units)}")

        await self._spread(units, run, results)

    async def _spread(self, units: list[U], run: Callable[[EvalRunner, int, U], Awaitable[R]],
                      into: list[R],
                      settled: Callable[[int, Mapping[int, R]], bool] | None = None) -> None:
        """Run every unit on some live server; append the results to `into` in the units' order
        (those that finished, when every server failed: then EvalError)."""
        if self._slots is None:
            self._slots = [asyncio.Semaphore(self.per_server) for _ in self.runners]
        slots = self._slots
        board: _Board[R] = _Board(deque(range(len(units))), settled)
        live = [index for index, runner in enumerate(self.runners) if not self._failed(runner)]

        async def worker(index: int) -> None:
            runner = self.runners[index]
            while await board.wait_for_work(lambda: self._failed(runner)):
                async with slots[index]:
                    unit = await board.take(lambda: self._failed(runner))
                    if unit is None:
                        continue
                    try:
                        result = await run(runner, unit + 1, units[unit])
                    except EvalError as exc:
                        self.failures[_url(runner)] = str(exc)
                        await board.put_back(unit)
                        return
                    except BaseException:
                        await board.finish(unit, None)
                        raise
                    await board.finish(unit, result)

        async with asyncio.TaskGroup() as group:
            for index in live:
                for _ in range(self.per_server):
                    group.create_task(worker(index))
        into.extend(board.done[unit] for unit in sorted(board.done))
        if board.todo:
            reasons = "; ".join(f"{url}: {why}" for url, why in self.failures.items())
            raise EvalError(f"every model server failed ({reasons})" if reasons
                            else "no model server is left to run the evals")

    def _failed(self, runner: EvalRunner) -> bool:
        return _url(runner) in self.failures


class _Board(Generic[R]):
    """The runs of one call: those to do, those under way, those done. A run whose server failed
    is put back, so a worker waits while runs are under way rather than leave with work pending."""

    def __init__(self, todo: deque[int],
                 settled: Callable[[int, Mapping[int, R]], bool] | None = None) -> None:
        self.todo = todo
        self.settled = settled
        self.done: dict[int, R] = {}
        self.busy = 0
        self.changed = asyncio.Condition()

    async def wait_for_work(self, failed: Callable[[], bool]) -> bool:
        """Whether there is a run for this worker: False once nothing is left or its server failed."""
        async with self.changed:
            await self.changed.wait_for(lambda: bool(self.todo) or self.busy == 0 or failed())
            return bool(self.todo) and not failed()

    async def take(self, failed: Callable[[], bool]) -> int | None:
        """The next run to make (None: none for this worker); runs already settled are dropped."""
        async with self.changed:
            while self.todo and self.settled is not None and self.settled(self.todo[0], self.done):
                self.todo.popleft()
            if failed() or not self.todo:
                self.changed.notify_all()
                return None
            self.busy += 1
            return self.todo.popleft()

    async def put_back(self, unit: int) -> None:
        async with self.changed:
            self.todo.appendleft(unit)
            self.busy -= 1
            self.changed.notify_all()

    async def finish(self, unit: int, result: R | None) -> None:
        async with self.changed:
            if result is not None:
                self.done[unit] = result
            self.busy -= 1
            self.changed.notify_all()


def _url(runner: EvalRunner) -> str:
    return runner.settings.url or "the default server"

"""Per-query trigger rates at a threshold, as skill-creator judges them, and early stopping once a
query's outcome cannot change."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from studio.evals.report import QueryResult, TriggerReport, decided
from studio.evals.spread import ServerPool
from studio.skills.checks.evalfiles import TriggerQuery
from tests.evals.test_eval_runner import catalog, make_runner, report_for, root
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply

__all__ = ["root"]


def runs_of(query: str, should: bool, picks: list[bool]) -> list[QueryResult]:
    return [QueryResult(query, should, run, picked) for run, picked in enumerate(picks, 1)]


def test_a_query_passes_by_its_rate_at_the_threshold() -> None:
    report = TriggerReport(3, [*runs_of("greet me", True, [True, False, True]),
                               *runs_of("tidy notes", False, [True, False, False]),
                               *runs_of("say hi", True, [False, False, True])], threshold=0.5)
    rates = {rate.query: rate for rate in report.rates()}
    assert [(r.triggers, r.runs, r.passed) for r in rates.values()] == [
        (2, 3, True), (1, 3, True), (1, 3, False)]
    assert rates["greet me"].to_json()["trigger_rate"] == pytest.approx(2 / 3)
    assert (report.query_precision, report.query_recall) == (1.0, 0.5)


@pytest.mark.parametrize(("triggers", "done", "runs", "settled"), [
    (2, 2, 3, True),     # 2 of 3 already reach 0.5
    (0, 2, 3, True),     # at most 1 of 3 is left: below 0.5
    (1, 2, 3, False),    # the third decides
    (1, 1, 2, True),     # 1 of 2 is 0.5: triggered whatever follows
    (0, 1, 2, False),
    (0, 0, 1, False),
])
def test_early_stopping_stops_only_when_the_outcome_is_settled(
        triggers: int, done: int, runs: int, settled: bool) -> None:
    assert decided(triggers, done, runs, 0.5) is settled


async def test_a_serial_run_skips_the_runs_that_cannot_change_a_query(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    activate = calls(Call("activate_skill", {"name": "demo"}))
    queries = (TriggerQuery("say hello to me", True), TriggerQuery("tidy my notes", False))
    # 3 runs each: the greeting is picked twice in a row (settled), the notes never (settled
    # after two).
    fake_ollama.script(activate, activate, reply("No."), reply("No."))
    skills = catalog(root)
    report = report_for(skills[0])
    await make_runner(fake_ollama, http_client, tmp_path).triggers(
        skills[0], skills, queries, 3, report, early_stop=True)
    trigger = report.trigger
    assert trigger is not None
    assert [(r.query, r.triggers, r.runs, r.passed) for r in trigger.rates()] == [
        ("say hello to me", 2, 2, True), ("tidy my notes", 0, 2, True)]
    assert len(fake_ollama.chats) == 4


async def test_a_spread_run_skips_settled_runs_too(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    fake_ollama.responder = lambda body: (
        calls(Call("activate_skill", {"name": "demo"}))
        if "hello" in body["messages"][-1]["content"] else reply("No."))
    queries = (TriggerQuery("say hello to me", True), TriggerQuery("tidy my notes", False))
    skills = catalog(root)
    report = report_for(skills[0])
    pool = ServerPool([make_runner(fake_ollama, http_client, tmp_path)])
    await pool.triggers(skills[0], skills, queries, 5, report, early_stop=True)
    trigger = report.trigger
    assert trigger is not None
    assert [(r.triggers, r.runs, r.passed) for r in trigger.rates()] == [(3, 3, True), (0, 3, True)]

"""Evals spread over several scripted servers: the same report as one server gives, every server
used, a server that dies mid-run dropped with its run handed to another, and the run stopped,
keeping what finished, only when every server has failed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.evals.cache import ResultCache
from studio.evals.report import SkillReport
from studio.evals.runner import EvalError, EvalRunner
from studio.evals.spread import ServerPool
from studio.skills.checks.evalfiles import TriggerQuery, parse_evals
from tests.evals.test_eval_runner import catalog, make_runner, report_for, root
from tests.fakes.fixtures import OLLAMA_MODELS
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, Turn, calls, error, reply

__all__ = ["root"]

QUERIES = [TriggerQuery(f"say hello to person {n}", True) for n in range(5)] + [
    TriggerQuery(f"tidy note {n}", False) for n in range(5)]
CASES = parse_evals({"skill_name": "demo", "evals": [
    {"id": n, "prompt": f"Say hi to {n}", "expected_output": "hi",
     "expectations": [{"contains": f"hi {n}"}]} for n in range(4)]}).evals


def answer(body: dict[str, Any]) -> Turn:
    """What the model says, from the request alone: the same whichever server is asked."""
    prompt = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    if prompt.startswith("say hello"):
        return calls(Call("activate_skill", {"name": "demo"}))
    if prompt.startswith("tidy note 3"):
        return calls(Call("activate_skill", {"name": "demo"}))   # a wrong pick, on purpose
    if prompt.startswith("Say hi to"):
        number = prompt.rsplit(" ", 1)[1]
        return reply(f"hi {number}" if number != "2" else "hello")
    return reply("Done.")


@pytest.fixture
def servers() -> Iterator[list[FakeOllama]]:
    started = [FakeOllama(OLLAMA_MODELS) for _ in range(2)]
    for server in started:
        server.responder = answer
        server.start()
    yield started
    for server in started:
        server.stop()


def pool_of(servers: list[FakeOllama], http: httpx.AsyncClient, tmp_path: Path,
            cache: ResultCache | None = None) -> ServerPool:
    return ServerPool([make_runner(server, http, tmp_path, cache) for server in servers])


async def run_all(runner: EvalRunner | ServerPool, root_dir: Path) -> SkillReport:
    skills = catalog(root_dir)
    report = report_for(skills[0])
    await runner.triggers(skills[0], skills, QUERIES, 2, report)
    await runner.outcomes(skills[0], [skills[0]], CASES, 1, report, report.evals, "with")
    return report


def figures(report: SkillReport) -> str:
    trigger = report.trigger
    assert trigger is not None
    # A run's trace holds the server's call ids, which differ from run to run.
    return json.dumps({"queries": [{k: v for k, v in q.to_json().items() if k != "trace"}
                                   for q in trigger.queries],
                       "evals": [[r.id, r.run, r.passed, [v.to_json() for v in r.expectations]]
                                 for r in report.evals]})


async def test_two_servers_give_the_report_one_server_gives(
    servers: list[FakeOllama], http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    serial = await run_all(make_runner(servers[0], http_client, tmp_path), root)
    before = [len(server.chats) for server in servers]
    spread = await run_all(pool_of(servers, http_client, tmp_path), root)
    assert figures(spread) == figures(serial)
    assert all(len(server.chats) > count for server, count in zip(servers, before, strict=True))
    trigger = spread.trigger
    assert trigger is not None and (trigger.precision, trigger.recall) == (10 / 12, 1.0)


async def test_a_server_that_dies_mid_run_is_dropped_and_its_run_goes_to_the_other(
    servers: list[FakeOllama], http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    asked = [0]

    def dies_on_the_third(body: dict[str, Any]) -> Turn:
        asked[0] += 1
        return answer(body) if asked[0] < 3 else error(500, {"error": "CUDA out of memory"})

    servers[1].responder = dies_on_the_third
    serial = await run_all(make_runner(servers[0], http_client, tmp_path), root)
    pool = pool_of(servers, http_client, tmp_path)
    spread = await run_all(pool, root)
    assert figures(spread) == figures(serial)
    assert list(pool.failures) == [servers[1].url]
    assert "CUDA out of memory" in pool.failures[servers[1].url]


async def test_when_every_server_fails_the_run_stops_and_keeps_what_finished_in_order(
    servers: list[FakeOllama], http_client: httpx.AsyncClient, root: Path, tmp_path: Path
) -> None:
    counts = [0, 0]

    def failing_after(which: int, limit: int) -> Any:
        def respond(body: dict[str, Any]) -> Turn:
            counts[which] += 1
            return answer(body) if counts[which] <= limit else error(503, {"error": "gone"})
        return respond

    servers[0].responder = failing_after(0, 3)
    servers[1].responder = failing_after(1, 2)
    cache = ResultCache(tmp_path / "cache")
    skills = catalog(root)
    report = report_for(skills[0])
    with pytest.raises(EvalError, match="every model server failed"):
        await pool_of(servers, http_client, tmp_path, cache).triggers(
            skills[0], skills, QUERIES, 1, report)
    trigger = report.trigger
    assert trigger is not None
    order = [q.query for q in QUERIES]
    kept = [q.query for q in trigger.queries]
    assert len(kept) == 5 and kept == sorted(kept, key=order.index)
    servers[0].responder = servers[1].responder = answer
    again = report_for(skills[0])
    await pool_of(servers, http_client, tmp_path, cache).triggers(skills[0], skills, QUERIES, 1, again)
    assert again.cached == 5

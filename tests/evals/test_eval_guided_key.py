"""A cached eval result is kept per guided mode: auto, on and off may run a model differently,
and "on" finds what `--guided` cached before there was auto."""

from __future__ import annotations

from pathlib import Path

import httpx

from studio.agent.approval import AutoApprover
from studio.agent.session import SessionFactory, SessionSettings
from studio.evals.cache import key_of
from studio.evals.report import SkillReport
from studio.evals.runner import EvalRunner
from studio.policy import AuditLog, Grants
from studio.settings import GUIDED_MODES


async def test_each_guided_mode_has_its_own_cache_key(tmp_path: Path) -> None:
    async with httpx.AsyncClient() as http:
        factory = SessionFactory(AutoApprover(), http, grants=Grants(tmp_path / "g.yaml"),
                                 audit=AuditLog(tmp_path / "a.jsonl"), home=tmp_path / "home")
        report = SkillReport("demo", "hash", "m")
        keys = {mode: EvalRunner(factory, SessionSettings(model="m", guided=mode))
                ._cache_key(report, "eval 1") for mode in GUIDED_MODES}
    assert len(set(keys.values())) == 3
    on = SessionSettings(model="m", guided="on")
    runner = EvalRunner(factory, on)
    # The model writing its runs is the default; the fill alone finds what was cached before.
    assert keys["on"] == key_of("hash", runner.model_id, [], on.max_rounds, "guided", "guided-write",
                                "eval 1")
    fill = SessionSettings(model="m", guided="on", guided_write=False)
    assert EvalRunner(factory, fill)._cache_key(report, "eval 1") == key_of(
        "hash", runner.model_id, [], on.max_rounds, "guided", "eval 1")
    assert keys["off"] == key_of("hash", runner.model_id, [], on.max_rounds, "eval 1")

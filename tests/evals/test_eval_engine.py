"""`studio eval` end to end on a real engine (xllamacpp's llama.cpp server on SmolLM2-135M):
one trigger query and one outcome eval, so the command's whole path is exercised on a model
whose choices no script fixes. The figures themselves are in the README, not asserted."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from tests.agent.test_chat_engine import SKILL_MD, _engine

pytestmark = pytest.mark.engine

SOURCE_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300.0
SKILL = "hello"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A folder of its own per run, so concurrent runs do not collide. The command runs in it and
    is given the skill relatively, so the catalog in the prompt reads `hello/SKILL.md` whatever
    the temp folder (as in test_chat_engine: the tiny model's greedy answer changes with the
    digits of pytest's numbered folders)."""
    folder = tmp_path / SKILL
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (folder / "scripts" / "hello.py").write_text('print("Hello from the hello skill!")\n')
    (folder / "evals").mkdir()
    (folder / "evals" / "triggers.json").write_text(
        json.dumps([{"query": "Please greet me.", "should_trigger": True}]))
    (folder / "evals" / "evals.json").write_text(json.dumps({"skill_name": "hello", "evals": [
        {"id": 1, "prompt": "Greet me.", "expectations": [{"regex": "[\\s\\S]*"}]}]}))
    return tmp_path


async def test_studio_eval_runs_a_trigger_query_and_an_eval_on_smollm2(workspace: Path) -> None:
    engine = _engine()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    async with engine:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "studio", "eval", SKILL, "--backend", "openai",
            "--url", engine.base_url, "--option", "temperature=0", "--option", "seed=1",
            "--option", "max_tokens=64", "--max-rounds", "3", "--json", "--no-cache",
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=workspace, env=env,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), TIMEOUT)
    report = json.loads(out)
    shown = f"exit {process.returncode}\n{report}\nstderr: {err.decode(errors='replace')}"
    assert process.returncode == 0 and report["problems"] == [], shown
    [query] = report["trigger"]["queries"]
    assert report["trigger"]["recall"] == (1.0 if query["triggered"] else 0.0), shown
    [result] = report["evals"]
    assert result["outcome"] in ("answered", "round-limit", "repeated-call"), shown
    assert 1 <= result["rounds"] <= 3 and result["seconds"] > 0, shown

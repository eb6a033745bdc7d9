"""A guided turn on a real engine: SmolLM2-135M, which on its own answers a unit conversion from
its head, is carried through the shipped unit-convert skill (pick it, run its script with the
user's values, answer from the output) and gets the script's exact figure.

Guided because the model is small ("auto", the default). Greedy (the guided rounds are greedy
unless told otherwise), so the model's choices are the same from run to run; one engine thread,
as in test_chat_engine.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import ChatNotice, Done, Event, TextDelta, ToolCallRequested, ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.llm import Message
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.agent.test_chat_engine import _engine

pytestmark = pytest.mark.engine

SHIPPED = Path(__file__).resolve().parents[2] / "skills"
TIMEOUT = 600.0


async def test_guided_smollm2_converts_with_the_unit_convert_skill(tmp_path: Path) -> None:
    engine = _engine()
    skills_dir = tmp_path / "skills"
    shutil.copytree(SHIPPED / "unit-convert", skills_dir / "unit-convert")
    skills = scan_root(SkillRoot(skills_dir)).skills
    executor = ToolExecutor(SkillToolbox(skills, tmp_path), AutoApprover(),
                            Grants(tmp_path / "grants.yaml"), AuditLog(tmp_path / "audit.jsonl"),
                            home=tmp_path / "home")
    prompt, _ = system_prompt(skills)
    messages = [Message("system", prompt),
                Message("user", "How many kilometres is 10 miles? Use the unit-convert skill.")]
    # "auto": the engine's /props names the GGUF file, whose size label says 135M.
    config = AgentConfig("smollm2", max_rounds=4, guided="auto", options={"seed": 1})
    async with engine, httpx.AsyncClient() as http:
        agent = Agent(OpenAIClient(engine.base_url, http, idle_timeout=TIMEOUT), executor, config)
        events = await asyncio.wait_for(_collect(agent, messages), TIMEOUT)
    report = f"events: {events}"
    assert any(isinstance(e, ChatNotice) and "smollm2 has 135M parameters" in e.message
               for e in events), report
    calls = [e for e in events if isinstance(e, ToolCallRequested)]
    assert [(c.tool, c.skill, c.constrained) for c in calls[:2]] == [
        ("activate_skill", "unit-convert", True), ("run_skill_script", "unit-convert", True)], report
    assert str(calls[1].arguments["command"]).startswith("python3 scripts/convert.py 10 "), report
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert finished[1].exit_code == 0 and "16.0934" in finished[1].result, report
    answer = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert "16.0934" in answer, report
    assert isinstance(events[-1], Done) and events[-1].reason == "answered", report


async def _collect(agent: Agent, messages: list[Message]) -> list[Event]:
    return [event async for event in agent.run(messages)]

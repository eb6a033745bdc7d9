"""End to end with a real engine: `studio chat --backend openai` against xllamacpp's llama.cpp
server on SmolLM2-135M, with a small skill whose script the model is forced to run; and the agent
loop's constrained path, where llama.cpp's grammar from the reply's JSON schema makes the model's
reply a valid tool call.

Greedy sampling keeps the model's choices the same from run to run; the engine uses one thread,
because on busy cores llama.cpp's threads wait on each other and two are many times slower.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.events import Done, Error, Event, ToolCallRequested, ToolFinished, ToolStarted
from studio.agent.execute import ToolExecutor
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.toolbook import TOOL_NAMES
from studio.agent.tools import SkillToolbox
from studio.llm import EmbeddedEngine, Message, ModelInfo
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.localmodels import INSTALL_HINT, smollm2_gguf

pytestmark = pytest.mark.engine

SOURCE_ROOT = Path(__file__).resolve().parents[2]
GREEDY = ["--option", "temperature=0", "--option", "seed=1", "--option", "max_tokens=64"]
# What these tests try is the model's own replies and calls, which "auto" would guide.
UNGUIDED = ["--guided", "off"]
CHAT_TIMEOUT = 120.0
SKILL_MD = """\
---
name: hello
description: Greets the user by running a script. Use when the user asks for a greeting.
---
# Hello

Run `python3 scripts/hello.py` and tell the user what it printed.
"""
SCRIPT = 'print("Hello from the hello skill!")\n'


def _engine() -> EmbeddedEngine:
    path = smollm2_gguf()
    if path is None:
        pytest.skip(INSTALL_HINT)
    return EmbeddedEngine(path, ctx_size=2048, threads=1)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace of its own per run, so concurrent runs do not collide. The chat runs in it and
    names the skills folder relatively, so the catalog in the prompt reads `skills/hello/SKILL.md`
    whatever the temp folder: with pytest's numbered folders in the prompt, the tiny model's greedy
    answer changed with the digits (once in about ten runs it called the tool a second time)."""
    skill = tmp_path / "skills" / "hello"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (skill / "scripts" / "hello.py").write_text(SCRIPT, encoding="utf-8")
    return tmp_path


async def _studio_chat(url: str, workspace: Path, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    """Run `studio chat --json` with no terminal; its exit code, its events and its stderr."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE_ROOT), env.get("PYTHONPATH")]))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "studio", "chat", "--backend", "openai", "--url", url,
        "--skills", "skills", "--workspace", str(workspace), "--json",
        *GREEDY, *UNGUIDED, *args,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=workspace, env=env,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(process.communicate(), CHAT_TIMEOUT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    events = [json.loads(line) for line in out.decode("utf-8").splitlines() if line.strip()]
    assert process.returncode is not None
    return process.returncode, events, err.decode("utf-8", errors="replace")


def _kinds(events: list[dict[str, Any]]) -> list[str]:
    return [event["kind"] for event in events]


async def test_studio_chat_streams_text_and_runs_a_forced_call_on_smollm2(workspace: Path) -> None:
    engine = _engine()
    async with engine:
        code, events, err = await _studio_chat(
            engine.base_url, workspace, "Write one sentence about the sea."
        )
        report = f"exit {code}\nevents: {events}\nstderr: {err}"
        assert code == 0, report
        assert _kinds(events).count("text") >= 3, report
        assert "tool_call" not in _kinds(events), report
        assert events[-1]["kind"] == "done" and events[-1]["reason"] == "answered", report
        assert events[-1]["text"].strip(), report

        code, events, err = await _studio_chat(
            engine.base_url, workspace, "--tool-choice", "required", "--auto-approve",
            "Run the hello skill's script: python3 scripts/hello.py",
        )  # fmt: skip
    assert not engine.running
    report = f"exit {code}\nevents: {events}\nstderr: {err}"
    kinds = _kinds(events)
    assert code == 0, report

    # Parsed: the model's first reply is a call, with arguments that fit the tool.
    assert kinds[0] == "tool_call", report
    call = events[0]
    assert call["tool"] == "run_skill_script", report
    assert call["arguments"]["skill"] == "hello", report
    assert isinstance(call["arguments"]["command"], str), report

    finished_events = [e for e in events if e["kind"] == "tool_finished"]
    assert len(finished_events) == 1, report
    if "there is no script" in finished_events[0]["result"]:
        # The tiny model named a script the skill lacks: the repair answers with the real ones,
        # and nothing is judged or run.
        assert finished_events[0]["status"] == "error", report
        assert "scripts/hello.py" in finished_events[0]["result"], report
        assert not [e for e in events if e["kind"] in ("approval", "tool_started")], report
    else:
        # Judged: the policy let it run, or asked and --auto-approve said yes.
        (approval,) = [e for e in events if e["kind"] == "approval"]
        assert approval["call_id"] == call["call_id"], report
        assert (approval["by"], approval["choice"]) in {("policy", "allow"), ("auto-approve", "once")}, report

        # Run: in the skill's folder, to an exit code.
        started_events = [e for e in events if e["kind"] == "tool_started"]
        finished_events = [e for e in events if e["kind"] == "tool_finished"]
        assert len(started_events) == len(finished_events) == 1, report
        started, finished = started_events[0], finished_events[0]
        assert started["call_id"] == finished["call_id"] == call["call_id"], report
        assert (workspace / started["cwd"]).resolve() == (workspace / "skills" / "hello").resolve(), report
        assert finished["status"] in ("ok", "failed"), report
        assert isinstance(finished["exit_code"], int), report
        if call["arguments"]["command"] == "python3 scripts/hello.py":
            assert finished["exit_code"] == 0, report
            assert "Hello from the hello skill!" in finished["result"], report

    # Answered: the model's second reply is text, and the turn ends there.
    after = kinds[kinds.index("tool_finished") + 1 :]
    assert "text" in after and "tool_call" not in after, report
    assert events[-1]["kind"] == "done", report
    assert events[-1]["reason"] == "answered" and events[-1]["rounds"] == 2, report


class _NoToolCalling(OpenAIClient):
    """The engine's client, saying the model has no tool calling of its own (as a server does
    for a template without tools), so that every reply goes through the constrained path."""

    async def model_info(self, name: str) -> ModelInfo:
        return ModelInfo(name, supports_tools=False, supports_thinking=False)


async def test_a_constrained_reply_makes_smollm2_call_a_skill_tool_and_the_call_runs(
    workspace: Path,
) -> None:
    engine = _engine()
    skills = scan_root(SkillRoot(workspace / "skills")).skills
    executor = ToolExecutor(SkillToolbox(skills, workspace), AutoApprover(),
                            Grants(workspace / "grants.yaml"), AuditLog(workspace / "audit.jsonl"),
                            home=workspace / "home")
    prompt, _ = system_prompt(skills)
    messages = [Message("system", prompt), Message("user", "Greet me with the hello skill.")]
    # One round: the forced call and its run are what is checked; what the tiny model writes
    # after it is not.
    config = AgentConfig("smollm2", max_rounds=1, tool_choice="required",
                         options={"temperature": 0, "seed": 1})
    async with engine, httpx.AsyncClient() as http:
        agent = Agent(_NoToolCalling(engine.base_url, http, idle_timeout=CHAT_TIMEOUT), executor, config)
        events = await asyncio.wait_for(_collect(agent, messages), CHAT_TIMEOUT)
    report = f"events: {events}"
    assert not [e for e in events if isinstance(e, Error)], report
    (call,) = [e for e in events if isinstance(e, ToolCallRequested)]
    assert call.constrained and call.tool in TOOL_NAMES and call.skill == "hello", report
    if call.tool == "run_skill_script":
        assert isinstance(call.arguments.get("command"), str), report
    # Run: the tool was carried out and its answer (whatever the tiny model asked for) went back.
    assert [e.call_id for e in events if isinstance(e, ToolStarted)] == [call.call_id], report
    (finished,) = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.call_id == call.call_id and finished.result, report
    assert messages[-1].role == "tool" and messages[-2].tool_calls[0].name == call.tool, report
    assert isinstance(events[-1], Done) and events[-1].reason == "round-limit", report


async def _collect(agent: Agent, messages: list[Message]) -> list[Event]:
    return [event async for event in agent.run(messages)]

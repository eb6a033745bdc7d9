"""Constrained replies against the scripted servers: the JSON schema sent (Ollama's `format`,
llama.cpp's `response_format`), the token cap, the stream stopped once the reply is whole or can
no longer be valid, the retry when the model's own call fails, and the mark on the card."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.approval import AutoApprover
from studio.agent.constrained import FORCED_MAX_TOKENS
from studio.agent.events import ChatNotice, Done, Error, Event, TextDelta, ToolCallRequested, ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.loop import Agent, AgentConfig
from studio.agent.prompt import system_prompt
from studio.agent.tools import SkillToolbox
from studio.commands.chat import Renderer
from studio.llm import ChatClient, Message
from studio.llm.ollama import OllamaClient
from studio.llm.openai import OpenAIClient
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.fixtures import OPENAI_MODEL, PLAIN_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Call, Hang, Text, Turn, calls, error, reply

ACTIVATE_DEMO = '{"tool": "activate_skill", "arguments": {"name": "demo"}}'
# Long enough for a test to fail rather than hang when the stream is not stopped early, short
# enough that nothing waits on it when it is.
IDLE = 20.0


def agent_for(client: ChatClient, project: Path, model: str, **config: Any) -> tuple[Agent, list[Message]]:
    skills = scan_root(SkillRoot(project / "skills")).skills
    executor = ToolExecutor(SkillToolbox(skills, project), AutoApprover(),
                            Grants(project.parent / "grants.yaml"), AuditLog(project.parent / "a.jsonl"),
                            home=project.parent / "home")
    prompt, _ = system_prompt(skills)
    return (Agent(client, executor, AgentConfig(model, **config)),
            [Message("system", prompt), Message("user", "say hello with the demo skill")])


def ollama(server: FakeOllama, http: httpx.AsyncClient) -> OllamaClient:
    return OllamaClient(server.url, http, idle_timeout=IDLE)


async def run_all(agent: Agent, messages: list[Message]) -> list[Event]:
    return [event async for event in agent.run(messages)]


def requested(events: list[Event]) -> list[ToolCallRequested]:
    return [e for e in events if isinstance(e, ToolCallRequested)]


async def test_a_model_without_tools_is_held_to_a_valid_call_by_ollamas_format(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(reply(ACTIVATE_DEMO[:20], ACTIVATE_DEMO[20:]), reply('{"answer": "Hello!"}'))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL)
    events = await run_all(agent, messages)
    first = fake_ollama.chats[0]
    assert "tools" not in first and first["options"]["num_predict"] == FORCED_MAX_TOKENS
    branches = {b["properties"]["tool"]["enum"][0]: b for b in first["format"]["oneOf"][:3]}
    assert branches["activate_skill"]["properties"]["arguments"]["properties"]["name"]["enum"] == [
        "demo", "other"]
    assert first["format"]["oneOf"][3]["required"] == ["answer"]
    assert '{"tool": "...", "arguments"' in first["messages"][0]["content"]
    assert [(e.tool, e.arguments, e.constrained) for e in requested(events)] == [
        ("activate_skill", {"name": "demo"}, True)]
    assert [e.status for e in events if isinstance(e, ToolFinished)] == ["ok"]
    second = fake_ollama.chats[1]["messages"]
    assert [m["role"] for m in second[-2:]] == ["assistant", "user"], "no tool roles for such a model"
    assert second[-2]["content"] == ACTIVATE_DEMO and second[-1]["content"].startswith(
        "Result of activate_skill:")
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hello!"]
    assert events[-1] == Done("answered", "Hello!", 2, events[-1].usage,  # type: ignore[union-attr]
                            model=PLAIN_MODEL)


async def test_llama_cpp_gets_the_schema_as_a_json_schema_response_format_with_a_token_cap(
    http_client: httpx.AsyncClient, project: Path
) -> None:
    server = FakeOpenAI({OPENAI_MODEL: []}, props={"chat_template_caps": {"supports_tools": False}})
    server.start()
    try:
        server.script(reply(ACTIVATE_DEMO), reply('{"answer": "done"}'))
        agent, messages = agent_for(OpenAIClient(server.url, http_client, idle_timeout=IDLE), project,
                                    OPENAI_MODEL, options={"max_tokens": 2000, "temperature": 0})
        events = await run_all(agent, messages)
        body = server.chats[0]
    finally:
        server.stop()
    assert "tools" not in body and body["max_tokens"] == FORCED_MAX_TOKENS and body["temperature"] == 0
    schema = body["response_format"]["json_schema"]["schema"]
    assert body["response_format"]["type"] == "json_schema" and len(schema["oneOf"]) == 4
    assert requested(events)[0].constrained and events[-1].reason == "answered"  # type: ignore[union-attr]


async def test_a_forced_first_call_leaves_out_the_answer_and_is_capped(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(reply(ACTIVATE_DEMO), reply('{"answer": "hi"}'))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL,
                                tool_choice="required", options={"num_predict": 100})
    await run_all(agent, messages)
    first, second = fake_ollama.chats
    assert [b["properties"]["tool"]["enum"] for b in first["format"]["oneOf"]] == [
        ["activate_skill"], ["read_skill_file"], ["run_skill_script"]]
    assert first["options"]["num_predict"] == 100, "a lower cap of the user's stays"
    assert len(second["format"]["oneOf"]) == 4


async def test_a_native_forced_call_is_capped_on_its_round_only(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_openai.script(calls(Call("activate_skill", {"name": "demo"})), reply("hi"))
    agent, messages = agent_for(OpenAIClient(fake_openai.url, http_client), project, OPENAI_MODEL,
                                tool_choice="required")
    await run_all(agent, messages)
    first, second = fake_openai.chats
    assert first["tool_choice"] == "required" and first["max_tokens"] == FORCED_MAX_TOKENS
    assert "max_tokens" not in second and "response_format" not in first


async def test_the_stream_is_closed_once_the_constrained_reply_is_whole(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(Turn([Text(ACTIVATE_DEMO), Text("\n\n{"), Hang()]), reply('{"answer": "ok"}'))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL)
    events = await run_all(agent, messages)
    assert not any(isinstance(e, Error) for e in events)
    assert requested(events)[0].arguments == {"name": "demo"}
    assert events[-1].reason == "answered"  # type: ignore[union-attr]


async def test_the_stream_is_closed_once_the_constrained_reply_can_no_longer_be_valid(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(Turn([Text('{"tool": "activate_skill", "arguments": {"name": "demo" oops'), Hang()]))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL)
    events = await run_all(agent, messages)
    errors = [e.message for e in events if isinstance(e, Error)]
    assert len(errors) == 1 and "stopped being valid JSON" in errors[0]
    assert events[-1].reason == "error" and not requested(events)  # type: ignore[union-attr]


async def test_a_reply_cut_by_the_token_cap_says_so(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(Turn([Text('{"answer": "and on and on')], finish="length"))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL)
    events = await run_all(agent, messages)
    assert any(isinstance(e, Error) and "was cut short" in e.message for e in events)


@pytest.mark.parametrize("failed", [
    calls(Call("convert_units", {"value": 3})),
    calls(Call("activate_skill", {"name": "dmeo"})),
    calls(Call("run_skill_script", "not json at all")),
    reply("I will use activate_skill for this: activate_skill(demo)"),
], ids=["unknown-tool", "unknown-skill", "bad-arguments", "call-in-text"])
async def test_a_failed_call_is_asked_again_constrained(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path, failed: Turn
) -> None:
    fake_ollama.script(failed, reply(ACTIVATE_DEMO), reply("Hello"))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, TOOL_MODEL)
    events = await run_all(agent, messages)
    first, retried, after = fake_ollama.chats
    assert "tools" in first and "format" not in first
    assert "tools" not in retried and len(retried["format"]["oneOf"]) == 4
    assert retried["options"]["num_predict"] == FORCED_MAX_TOKENS
    assert len(retried["messages"]) == len(first["messages"]), "the failed reply is not kept"
    assert "tools" in after and "format" not in after
    assert any(isinstance(e, ChatNotice) and "was not valid" in e.message for e in events)
    assert [(e.tool, e.constrained) for e in requested(events)] == [("activate_skill", True)]
    assert events[-1] == Done("answered", "Hello", 3, events[-1].usage,  # type: ignore[union-attr]
                            model=TOOL_MODEL)


async def test_a_server_that_ignores_the_schema_is_asked_again_without_it(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(reply("Hello there"), reply("Hello there"))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL)
    events = await run_all(agent, messages)
    assert "format" in fake_ollama.chats[0] and "format" not in fake_ollama.chats[1]
    assert any(isinstance(e, ChatNotice) and "did not hold the model" in e.message for e in events)
    assert events[-1] == Done("answered", "Hello there", 2, events[-1].usage,  # type: ignore[union-attr]
                            model=PLAIN_MODEL)


def test_studio_chat_marks_a_constrained_call() -> None:
    out, err = io.StringIO(), io.StringIO()
    renderer = Renderer(False, out, err)
    renderer.show(ToolCallRequested("c1", "activate_skill", {"name": "demo"}, "demo", "load skill demo",
                                    True))
    renderer.show(ToolCallRequested("c2", "activate_skill", {"name": "demo"}, "demo", "load skill demo"))
    assert err.getvalue().splitlines() == [
        "-> activate_skill: load skill demo (constrained)", "-> activate_skill: load skill demo"]


async def test_a_server_that_refuses_the_schema_is_asked_again_without_it(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, project: Path
) -> None:
    fake_ollama.script(error(400, {"error": "invalid format"}), reply("hi"))
    agent, messages = agent_for(ollama(fake_ollama, http_client), project, PLAIN_MODEL)
    events = await run_all(agent, messages)
    assert "format" in fake_ollama.chats[0]
    assert "format" not in fake_ollama.chats[1] and "tools" not in fake_ollama.chats[1]
    assert any(isinstance(e, ChatNotice) and "refused a constrained reply" in e.message for e in events)
    assert events[-1] == Done("answered", "hi", 2, events[-1].usage,  # type: ignore[union-attr]
                            model=PLAIN_MODEL)


async def test_without_skills_a_model_without_tools_just_chats(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tmp_path: Path
) -> None:
    (tmp_path / "empty" / "skills").mkdir(parents=True)
    fake_ollama.script(reply("hi"))
    agent, messages = agent_for(ollama(fake_ollama, http_client), tmp_path / "empty", PLAIN_MODEL)
    events = await run_all(agent, messages)
    assert "format" not in fake_ollama.chats[0] and "tools" not in fake_ollama.chats[0]
    assert not any(isinstance(e, ChatNotice) for e in events) and events[-1].reason == "answered"  # type: ignore[union-attr]

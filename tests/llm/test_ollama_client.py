"""OllamaClient against the scripted Ollama server: streaming, tool calls, message format."""

from __future__ import annotations

import httpx
import pytest

from studio.llm.errors import BadResponse, ModelNotFound, ThinkingUnsupported, ToolsUnsupported
from studio.llm.ollama import OllamaClient, default_url
from studio.llm.types import Message, TextChunk, ThinkingChunk, ToolCall, ToolSpec
from tests.fakes.fixtures import PLAIN_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, Raw, Text, Turn, calls, reply
from tests.fakes.streams import calls_of, collect, end_of, text_of

SKILL_TOOL = ToolSpec(
    "activate_skill",
    "Load a skill",
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
)


@pytest.fixture
def client(fake_ollama: FakeOllama, http_client: httpx.AsyncClient) -> OllamaClient:
    return OllamaClient(fake_ollama.url, http_client)


async def test_text_and_thinking_stream_in_order(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script(reply("Hel", "lo", thinking=["Let me ", "think."]))
    events = await collect(client.chat(TOOL_MODEL, [Message("user", "hi")], think=True))
    assert events[:4] == [
        ThinkingChunk("Let me "),
        ThinkingChunk("think."),
        TextChunk("Hel"),
        TextChunk("lo"),
    ]
    end = end_of(events)
    assert end.finish_reason == "stop"
    assert end.usage["prompt_tokens"] == 12
    assert end.usage["completion_tokens"] == 5
    sent = fake_ollama.chats[0]
    assert sent["model"] == TOOL_MODEL
    assert sent["stream"] is True
    assert sent["think"] is True
    assert sent["messages"] == [{"role": "user", "content": "hi"}]
    assert "tools" not in sent


async def test_tool_call_arrives_whole(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "pdf"}), text="Loading."))
    events = await collect(client.chat(TOOL_MODEL, [Message("user", "pdf?")], tools=[SKILL_TOOL]))
    assert text_of(events) == "Loading."
    (call,) = calls_of(events)
    assert call.name == "activate_skill"
    assert call.arguments == {"name": "pdf"}
    assert call.id
    assert fake_ollama.chats[0]["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "activate_skill",
                "description": "Load a skill",
                "parameters": SKILL_TOOL.parameters,
            },
        }
    ]


async def test_tool_call_keeps_the_servers_id_and_parses_string_arguments(
    fake_ollama: FakeOllama, client: OllamaClient
) -> None:
    fake_ollama.script(calls(Call("activate_skill", '{"name": "docx"}', id="call_7")))
    (call,) = calls_of(await collect(client.chat(TOOL_MODEL, [Message("user", "x")], tools=[SKILL_TOOL])))
    assert call == ToolCall("call_7", "activate_skill", {"name": "docx"})


async def test_history_uses_ollamas_tool_message_format(
    fake_ollama: FakeOllama, client: OllamaClient
) -> None:
    fake_ollama.script(reply("done"))
    history = [
        Message("system", "You help."),
        Message("user", "load pdf"),
        Message(
            "assistant",
            "",
            tool_calls=[ToolCall("c1", "activate_skill", {"name": "pdf"})],
            thinking="I should load it.",
        ),
        Message("tool", "# PDF skill", tool_name="activate_skill", tool_call_id="c1"),
    ]
    await collect(client.chat(TOOL_MODEL, history, tools=[SKILL_TOOL]))
    assert fake_ollama.chats[0]["messages"] == [
        {"role": "system", "content": "You help."},
        {"role": "user", "content": "load pdf"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": "activate_skill", "arguments": {"name": "pdf"}}}],
            "thinking": "I should load it.",
        },
        {"role": "tool", "content": "# PDF skill", "tool_name": "activate_skill"},
    ]


async def test_options_are_sent_with_ollamas_names(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script(reply("ok"))
    await collect(
        client.chat(TOOL_MODEL, [Message("user", "x")], options={"temperature": 0, "max_tokens": 9})
    )
    assert fake_ollama.chats[0]["options"] == {"temperature": 0, "num_predict": 9}


async def test_tool_choice_none_offers_no_tools(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script(reply("ok"))
    await collect(client.chat(TOOL_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice="none"))
    assert "tools" not in fake_ollama.chats[0]


async def test_list_models_and_capabilities(client: OllamaClient) -> None:
    names = [model.name for model in await client.list_models()]
    assert names == sorted([TOOL_MODEL, PLAIN_MODEL])
    tool_model = await client.model_info(TOOL_MODEL)
    assert (tool_model.supports_tools, tool_model.supports_thinking) == (True, True)
    plain = await client.model_info(PLAIN_MODEL)
    assert (plain.supports_tools, plain.supports_thinking) == (False, False)
    assert await client.version() == FakeOllama.version


async def test_unknown_model_says_how_to_pull_it(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    with pytest.raises(ModelNotFound) as info:
        await client.model_info("llama9")
    assert "ollama pull llama9" in info.value.user_message
    with pytest.raises(ModelNotFound) as chat_info:
        await collect(client.chat("llama9", [Message("user", "x")]))
    assert "ollama pull llama9" in chat_info.value.user_message
    assert fake_ollama.pending == 0


async def test_tools_for_a_model_without_them_is_a_clear_error(client: OllamaClient) -> None:
    with pytest.raises(ToolsUnsupported) as info:
        await collect(client.chat(PLAIN_MODEL, [Message("user", "x")], tools=[SKILL_TOOL]))
    assert PLAIN_MODEL in info.value.user_message
    assert "does not support tools" in info.value.user_message


async def test_thinking_for_a_model_without_it_is_a_clear_error(client: OllamaClient) -> None:
    with pytest.raises(ThinkingUnsupported):
        await collect(client.chat(PLAIN_MODEL, [Message("user", "x")], think=True))


async def test_a_line_that_is_not_json_is_reported(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script(Turn([Text("a"), Raw("{not json")]))
    with pytest.raises(BadResponse) as info:
        await collect(client.chat(TOOL_MODEL, [Message("user", "x")]))
    assert "{not json" in info.value.user_message


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "http://127.0.0.1:11434"),
        ({"OLLAMA_HOST": "0.0.0.0"}, "http://127.0.0.1:11434"),
        ({"OLLAMA_HOST": "gpu-box:8000"}, "http://gpu-box:8000"),
        ({"OLLAMA_HOST": "https://ollama.example.com"}, "https://ollama.example.com:11434"),
        ({"OLLAMA_HOST": ":9999"}, "http://127.0.0.1:9999"),
    ],
)
def test_default_url_follows_ollama_host(environ: dict[str, str], expected: str) -> None:
    assert default_url(environ) == expected

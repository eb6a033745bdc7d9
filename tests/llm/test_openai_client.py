"""OpenAIClient against the scripted OpenAI-compatible server: SSE, tool-call deltas, reasoning."""

from __future__ import annotations

import json

import httpx
import pytest

from studio.llm.errors import BadResponse, HTTPError, ModelNotFound
from studio.llm.openai import OpenAIClient, ToolCallAssembler, split_base_url
from studio.llm.types import Message, TextChunk, ThinkingChunk, ToolCall, ToolCallChunk, ToolSpec
from tests.fakes.fixtures import OPENAI_MODEL
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Call, Raw, Text, Turn, calls, reply
from tests.fakes.streams import calls_of, collect, end_of, text_of

SKILL_TOOL = ToolSpec(
    "activate_skill",
    "Load a skill",
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
)
READ_TOOL = ToolSpec("read_skill_file", "Read a file", {"type": "object", "properties": {}})


@pytest.fixture
def client(fake_openai: FakeOpenAI, http_client: httpx.AsyncClient) -> OpenAIClient:
    return OpenAIClient(fake_openai.url, http_client)


def _delta_event(delta: dict[str, object], finish: str | None = None) -> Raw:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return Raw("data: " + json.dumps({"choices": [choice]}))


def _call_delta(index: int, arguments: str, call_id: str | None = None, name: str | None = None) -> Raw:
    function = {"arguments": arguments} if name is None else {"name": name, "arguments": arguments}
    delta: dict[str, object] = {"index": index, "function": function}
    if call_id is not None:
        delta["id"] = call_id
    return _delta_event({"tool_calls": [delta]})


async def test_text_streams_and_usage_is_reported(fake_openai: FakeOpenAI, client: OpenAIClient) -> None:
    fake_openai.script(reply("Hel", "lo"))
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "hi")], options={"num_predict": 7}))
    assert [e for e in events if isinstance(e, TextChunk)] == [TextChunk("Hel"), TextChunk("lo")]
    end = end_of(events)
    assert end.finish_reason == "stop"
    assert end.usage["prompt_tokens"] == 12
    sent = fake_openai.chats[0]
    assert sent["stream"] is True
    assert sent["stream_options"] == {"include_usage": True}
    assert sent["max_tokens"] == 7
    assert "tools" not in sent
    assert "tool_choice" not in sent


@pytest.mark.parametrize("key", ["reasoning_content", "reasoning"])
async def test_reasoning_fields_become_thinking(key: str, http_client: httpx.AsyncClient) -> None:
    with FakeOpenAI({OPENAI_MODEL: []}, reasoning_key=key) as server:
        server.script(reply("42", thinking=["Six ", "times seven."]))
        client = OpenAIClient(server.url, http_client)
        events = await collect(client.chat(OPENAI_MODEL, [Message("user", "?")], think=True))
        assert events[:2] == [ThinkingChunk("Six "), ThinkingChunk("times seven.")]
        assert text_of(events) == "42"
        assert server.chats[0]["chat_template_kwargs"] == {"enable_thinking": True}


async def test_tool_call_deltas_are_joined_then_parsed(fake_openai: FakeOpenAI, client: OpenAIClient) -> None:
    arguments = {"name": "pdf", "note": "a longer value so the pieces are many"}
    fake_openai.script(calls(Call("activate_skill", arguments, id="call_a", pieces=7), text="Sure."))
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL]))
    assert calls_of(events) == [ToolCall("call_a", "activate_skill", arguments)]
    assert text_of(events) == "Sure."
    assert end_of(events).finish_reason == "tool_calls"
    call_events = [i for i, e in enumerate(events) if isinstance(e, ToolCallChunk)]
    assert call_events == [len(events) - 2], "a call is emitted once, whole, before the end"


async def test_two_calls_interleaved_are_joined_per_index(
    fake_openai: FakeOpenAI, client: OpenAIClient
) -> None:
    fake_openai.script(
        Turn(
            [
                _call_delta(0, '{"na', call_id="a", name="activate_skill"),
                _call_delta(1, '{"pa', call_id="b", name="read_skill_file"),
                _call_delta(0, 'me": "pdf"}'),
                _call_delta(1, 'th": "x.md"}'),
            ],
            finish="tool_calls",
        )
    )
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL, READ_TOOL]))
    assert calls_of(events) == [
        ToolCall("a", "activate_skill", {"name": "pdf"}),
        ToolCall("b", "read_skill_file", {"path": "x.md"}),
    ]


async def test_calls_without_an_index_are_told_apart_by_id(
    fake_openai: FakeOpenAI, client: OpenAIClient
) -> None:
    fake_openai.script(
        calls(
            Call("activate_skill", {"name": "pdf"}, id="one", index=None),
            Call("activate_skill", {"name": "docx"}, id="two", index=None),
        )
    )
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL]))
    assert [(c.id, c.arguments) for c in calls_of(events)] == [
        ("one", {"name": "pdf"}),
        ("two", {"name": "docx"}),
    ]


async def test_calls_that_reuse_index_zero_are_told_apart_by_id(
    fake_openai: FakeOpenAI, client: OpenAIClient
) -> None:
    fake_openai.script(
        calls(
            Call("activate_skill", {"name": "pdf"}, id="one", index=0),
            Call("activate_skill", {"name": "docx"}, id="two", index=0),
        )
    )
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL]))
    assert [c.arguments["name"] for c in calls_of(events)] == ["pdf", "docx"]


async def test_a_call_without_id_gets_one(fake_openai: FakeOpenAI, client: OpenAIClient) -> None:
    fake_openai.script(calls(Call("activate_skill", {"name": "pdf"}, id="")))
    (call,) = calls_of(await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL])))
    assert call.id.startswith("call_")


async def test_arguments_that_are_not_json_are_kept_for_the_model(
    fake_openai: FakeOpenAI, client: OpenAIClient
) -> None:
    fake_openai.script(calls(Call("activate_skill", '{"name": pdf', id="c")))
    (call,) = calls_of(await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL])))
    assert call.arguments == {}
    assert call.invalid_arguments == '{"name": pdf'


@pytest.mark.parametrize(
    ("choice", "sent"),
    [
        (None, None),
        ("auto", "auto"),
        ("required", "required"),
        ("activate_skill", {"type": "function", "function": {"name": "activate_skill"}}),
    ],
)
async def test_tool_choice_is_sent(
    fake_openai: FakeOpenAI, client: OpenAIClient, choice: str | None, sent: object
) -> None:
    fake_openai.script(reply("ok"))
    await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice=choice))
    assert fake_openai.chats[0].get("tool_choice") == sent
    assert fake_openai.chats[0]["tools"][0]["function"]["name"] == "activate_skill"


async def test_history_uses_openais_tool_message_format(
    fake_openai: FakeOpenAI, client: OpenAIClient
) -> None:
    fake_openai.script(reply("done"))
    history = [
        Message("user", "load pdf"),
        Message("assistant", "", tool_calls=[ToolCall("c1", "activate_skill", {"name": "pdf"})]),
        Message("tool", "# PDF skill", tool_name="activate_skill", tool_call_id="c1"),
    ]
    await collect(client.chat(OPENAI_MODEL, history, tools=[SKILL_TOOL]))
    sent = fake_openai.chats[0]["messages"]
    assert sent[1] == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "activate_skill", "arguments": '{"name": "pdf"}'},
            }
        ],
    }
    assert sent[2] == {
        "role": "tool",
        "content": "# PDF skill",
        "tool_call_id": "c1",
        "name": "activate_skill",
    }


async def test_a_finished_stream_without_done_marker_is_complete(
    fake_openai: FakeOpenAI, client: OpenAIClient
) -> None:
    fake_openai.script(Turn([Text("ok"), _delta_event({}, finish="stop")], done=False))
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "x")]))
    assert text_of(events) == "ok"
    assert end_of(events).finish_reason == "stop"


async def test_comments_and_event_names_are_skipped(fake_openai: FakeOpenAI, client: OpenAIClient) -> None:
    fake_openai.script(Turn([Raw(": keep-alive"), Raw("event: message\ndata: " + json.dumps(
        {"choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": None}]}
    ))]))  # fmt: skip
    assert text_of(await collect(client.chat(OPENAI_MODEL, [Message("user", "x")]))) == "hi"


async def test_malformed_event_is_reported(fake_openai: FakeOpenAI, client: OpenAIClient) -> None:
    fake_openai.script(Turn([Raw("data: {oops")]))
    with pytest.raises(BadResponse) as info:
        await collect(client.chat(OPENAI_MODEL, [Message("user", "x")]))
    assert "{oops" in info.value.user_message


async def test_unknown_model(client: OpenAIClient) -> None:
    with pytest.raises(ModelNotFound) as info:
        await collect(client.chat("nope", [Message("user", "x")]))
    assert "'nope'" in info.value.user_message
    assert "does not exist" in info.value.server_text


async def test_models_are_listed(client: OpenAIClient) -> None:
    assert [m.name for m in await client.list_models()] == [OPENAI_MODEL]


async def test_model_info_reads_llama_cpp_template_capabilities(http_client: httpx.AsyncClient) -> None:
    caps = {"supports_tools": False, "supports_tool_calls": False}
    with FakeOpenAI({}, props={"chat_template_caps": caps, "model_path": "/m.gguf"}) as server:
        info = await OpenAIClient(server.url, http_client).model_info("m")
    assert info.supports_tools is False
    assert info.details["model_path"] == "/m.gguf"


async def test_model_info_is_unknown_without_props(client: OpenAIClient) -> None:
    info = await client.model_info(OPENAI_MODEL)
    assert (info.supports_tools, info.supports_thinking) == (None, None)


async def test_api_key_is_sent(http_client: httpx.AsyncClient) -> None:
    with FakeOpenAI({}, api_key="sekrit") as server:
        server.script(reply("ok"))
        with pytest.raises(HTTPError) as info:
            await OpenAIClient(server.url, http_client).list_models()
        assert info.value.status == 401
        good = OpenAIClient(server.url + "/v1", http_client, api_key="sekrit")
        assert text_of(await collect(good.chat("any", [Message("user", "x")]))) == "ok"


def test_base_url_with_or_without_v1() -> None:
    assert split_base_url("http://h:8080") == ("http://h:8080", "http://h:8080/v1")
    assert split_base_url("http://h:8080/v1/") == ("http://h:8080", "http://h:8080/v1")


def test_assembler_handles_repeated_names_and_whole_argument_objects() -> None:
    assembler = ToolCallAssembler()
    assembler.add({"index": 0, "id": "x", "function": {"name": "activate_skill", "arguments": ""}})
    assembler.add({"index": 0, "function": {"name": "activate_skill", "arguments": {"name": "pdf"}}})
    assert assembler.finish() == [ToolCall("x", "activate_skill", {"name": "pdf"})]
    assert not assembler

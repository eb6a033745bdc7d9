"""A forced tool call on llama.cpp's server: the client learns from `/apply-template` how the
template opens a call and ends the request with that much of the model's turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from studio.llm.openai import OpenAIClient, find_call_opener
from studio.llm.types import Message, StreamEnd, ToolSpec
from tests.fakes.fixtures import OPENAI_MODEL
from tests.fakes.httpserver import Exchange, Request
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Call, Hang, Turn, calls
from tests.fakes.streams import calls_of, collect

SKILL_TOOL = ToolSpec(
    "activate_skill",
    "Load a skill",
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
)
OPENER = '<tool_call>\n{"name": "'


def _chatml(messages: list[dict[str, Any]], continues: bool) -> str:
    """ChatML with calls in <tool_call> tags, as `chat_templates.CHATML_TOOLS` renders it."""
    out = "<|im_start|>system\n<tools>...</tools><|im_end|>\n"
    for number, message in enumerate(messages, 1):
        role, text = message["role"], message.get("content") or ""
        if role == "tool":
            role, text = "user", f"<tool_response>\n{text}\n</tool_response>"
        for call in message.get("tool_calls") or ():
            function = call["function"]
            text += f'{OPENER}{function["name"]}", "arguments": {function["arguments"]}}}\n</tool_call>'
        if role == "assistant" and number == len(messages) and continues:
            return out + f"<|im_start|>assistant\n{text}"
        out += f"<|im_start|>{role}\n{text}<|im_end|>\n"
    return out + "<|im_start|>assistant\n"


class FakeLlamaServer(FakeOpenAI):
    """FakeOpenAI with llama.cpp's `/apply-template`. `continues`: a trailing assistant message
    is left open for the model to continue (llama.cpp's default), else closed like the others."""

    def __init__(self, continues: bool = True) -> None:
        super().__init__({OPENAI_MODEL: []})
        self.continues = continues

    async def respond(self, request: Request, exchange: Exchange) -> None:
        if request.path == "/apply-template" and request.method == "POST":
            await exchange.send(200, {"prompt": _chatml(request.json["messages"], self.continues)})
        else:
            await super().respond(request, exchange)


@pytest.fixture
def llama() -> Iterator[FakeLlamaServer]:
    server = FakeLlamaServer()
    server.start()
    yield server
    server.stop()


def test_the_opener_is_what_comes_before_the_name() -> None:
    plain = "<s>user: hi\nassistant: "
    assert find_call_opener(plain, plain + '<call>{"name": "probe", "arguments": {}}', "probe") == (
        '<call>{"name": "'
    )
    assert find_call_opener(plain, "<s>user: hi\nbot: probe", "probe") is None
    assert find_call_opener(plain, plain + "probe()", "probe") is None
    assert find_call_opener(plain, plain + "no call here", "probe") is None


@pytest.mark.parametrize(
    ("choice", "started"), [("required", OPENER), ("activate_skill", OPENER + "activate_skill")]
)
async def test_a_forced_call_is_started_for_the_model(
    llama: FakeLlamaServer, http_client: httpx.AsyncClient, choice: str, started: str
) -> None:
    client = OpenAIClient(llama.url, http_client)
    llama.script(calls(Call("activate_skill", {"name": "pdf"})))
    events = await collect(
        client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice=choice)
    )
    (call,) = calls_of(events)
    assert (call.name, call.arguments) == ("activate_skill", {"name": "pdf"})
    sent = llama.chats[0]
    assert sent["messages"][-1] == {"role": "assistant", "content": started}
    assert sent["messages"][-2] == {"role": "user", "content": "x"}
    # llama.cpp reads no tool name from tool_choice; "required" keeps its grammar on.
    assert sent["tool_choice"] == "required"


async def test_the_server_is_asked_once_per_model(
    llama: FakeLlamaServer, http_client: httpx.AsyncClient
) -> None:
    client = OpenAIClient(llama.url, http_client)
    llama.script(calls(Call("activate_skill", {"name": "a"})), calls(Call("activate_skill", {"name": "b"})))
    for _ in range(2):
        await collect(
            client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice="required")
        )
    assert len(llama.requests_to("/apply-template")) == 3
    assert [chat["messages"][-1]["content"] for chat in llama.chats] == [OPENER, OPENER]


@pytest.mark.parametrize("choice", [None, "auto", "none"])
async def test_a_free_choice_is_left_alone(
    llama: FakeLlamaServer, http_client: httpx.AsyncClient, choice: str | None
) -> None:
    client = OpenAIClient(llama.url, http_client)
    llama.script(calls(Call("activate_skill", {"name": "pdf"})))
    await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice=choice))
    assert llama.requests_to("/apply-template") == []
    assert llama.chats[0]["messages"][-1] == {"role": "user", "content": "x"}


async def test_no_head_start_when_the_server_would_close_the_turn(http_client: httpx.AsyncClient) -> None:
    server = FakeLlamaServer(continues=False)
    server.start()
    try:
        client = OpenAIClient(server.url, http_client)
        server.script(calls(Call("activate_skill", {"name": "pdf"})))
        question = [Message("user", "x")]
        await collect(
            client.chat(OPENAI_MODEL, question, tools=[SKILL_TOOL], tool_choice="activate_skill")
        )
    finally:
        server.stop()
    sent = server.chats[0]
    assert sent["messages"][-1] == {"role": "user", "content": "x"}
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "activate_skill"}}


async def test_no_head_start_from_a_server_without_apply_template(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient
) -> None:
    client = OpenAIClient(fake_openai.url, http_client)
    fake_openai.script(calls(Call("activate_skill", {"name": "pdf"})))
    events = await collect(
        client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice="required")
    )
    assert [call.name for call in calls_of(events)] == ["activate_skill"]
    assert len(fake_openai.requests_to("/apply-template")) == 1
    sent = fake_openai.chats[0]
    assert sent["messages"][-1] == {"role": "user", "content": "x"}
    assert sent["tool_choice"] == "required"


async def test_a_history_ending_with_the_models_turn_is_not_extended(
    llama: FakeLlamaServer, http_client: httpx.AsyncClient
) -> None:
    client = OpenAIClient(llama.url, http_client)
    llama.script(calls(Call("activate_skill", {"name": "pdf"})))
    history = [Message("user", "x"), Message("assistant", "Let me")]
    await collect(client.chat(OPENAI_MODEL, history, tools=[SKILL_TOOL], tool_choice="required"))
    assert llama.chats[0]["messages"][-1] == {"role": "assistant", "content": "Let me"}


@pytest.mark.parametrize(
    ("written", "arguments"),
    [
        ('{"name": "pdf"}  {"name": "pdf"} and on', {"name": "pdf"}),
        ('{"name": "pdf" and then some prose', {}),
    ],
    ids=["whole", "broken"],
)
async def test_a_forced_call_is_read_only_until_its_arguments_settle(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient, written: str, arguments: dict[str, Any]
) -> None:
    """The stream then hangs: without the stop, the chat would wait out the idle timeout."""
    client = OpenAIClient(fake_openai.url, http_client, idle_timeout=20.0)
    fake_openai.script(Turn([Call("activate_skill", written, pieces=len(written)), Hang()]))
    events = await collect(
        client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL], tool_choice="required")
    )
    (call,) = calls_of(events)
    assert (call.name, call.arguments) == ("activate_skill", arguments)
    assert (call.invalid_arguments is None) == bool(arguments)
    assert isinstance(events[-1], StreamEnd) and events[-1].finish_reason == "tool_calls"


async def test_a_call_that_is_not_forced_is_read_to_the_end(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient
) -> None:
    client = OpenAIClient(fake_openai.url, http_client)
    fake_openai.script(calls(Call("activate_skill", {"name": "a"}), Call("activate_skill", {"name": "b"})))
    events = await collect(client.chat(OPENAI_MODEL, [Message("user", "x")], tools=[SKILL_TOOL]))
    assert [call.arguments["name"] for call in calls_of(events)] == ["a", "b"]

"""How both HTTP clients fail: every failure is an LLMError a person can act on, and stopping a
stream closes the connection at once. Each test runs against the Ollama and the OpenAI fake."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from studio.llm.client import ChatClient, make_client
from studio.llm.errors import HTTPError, LLMError, ServerNotRunning, StreamInterrupted, Timeout
from studio.llm.types import Message, StreamEvent, TextChunk
from tests.fakes.chatserver import ScriptedChatServer
from tests.fakes.fixtures import OLLAMA_MODELS, OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Disconnect, Pause, StreamError, Text, Turn, disconnect, error, hang, reply
from tests.fakes.streams import collect

QUESTION = [Message("user", "hello")]


@dataclass
class Backend:
    name: str
    server: ScriptedChatServer
    model: str

    def client(self, http: httpx.AsyncClient | None, idle_timeout: float = 10.0) -> ChatClient:
        return make_client(self.name, self.server.url, http, idle_timeout=idle_timeout)


@pytest.fixture(params=["ollama", "openai"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    if request.param == "ollama":
        server: ScriptedChatServer = FakeOllama(OLLAMA_MODELS)
        model = TOOL_MODEL
    else:
        server = FakeOpenAI({OPENAI_MODEL: []})
        model = OPENAI_MODEL
    server.start()
    yield Backend(request.param, server, model)
    server.stop()


async def _consume(client: ChatClient, model: str) -> tuple[list[StreamEvent], LLMError]:
    """The events that arrived before the error, and the error."""
    seen: list[StreamEvent] = []
    with pytest.raises(LLMError) as info:
        async for event in client.chat(model, QUESTION):
            seen.append(event)
    return seen, info.value


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("name", ["ollama", "openai"])
async def test_server_not_running_names_the_url_and_how_to_start_it(
    name: str, http_client: httpx.AsyncClient
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    client = make_client(name, url, http_client)
    with pytest.raises(ServerNotRunning) as info:
        await collect(client.chat("m", QUESTION))
    assert url in info.value.user_message
    assert ("ollama serve" if name == "ollama" else "llama-server") in info.value.user_message
    with pytest.raises(ServerNotRunning):
        await client.list_models()


async def test_a_server_that_never_answers_times_out(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(hang())
    seen, failure = await _consume(backend.client(http_client, idle_timeout=0.3), backend.model)
    assert seen == []
    assert isinstance(failure, Timeout)
    assert "0.3 s" in failure.user_message
    assert "idle timeout" in failure.user_message


async def test_a_stream_that_stalls_midway_times_out(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(hang(Text("Hal")))
    # Long enough for the first piece to arrive on a loaded machine; only the stall after it times out.
    seen, failure = await _consume(backend.client(http_client, idle_timeout=3.0), backend.model)
    assert seen == [TextChunk("Hal")]
    assert isinstance(failure, Timeout)


async def test_a_server_that_disconnects_midway(backend: Backend, http_client: httpx.AsyncClient) -> None:
    backend.server.script(disconnect(Text("Half an ")))
    seen, failure = await _consume(backend.client(http_client), backend.model)
    assert seen == [TextChunk("Half an ")]
    assert isinstance(failure, StreamInterrupted)
    assert "stopped midway" in failure.user_message


async def test_a_server_that_disconnects_before_answering(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(Turn([Disconnect()]))
    _, failure = await _consume(backend.client(http_client), backend.model)
    assert isinstance(failure, StreamInterrupted)


async def test_an_error_inside_the_stream_carries_the_servers_text(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(Turn([Text("So"), StreamError("model runner has unexpectedly stopped")]))
    seen, failure = await _consume(backend.client(http_client), backend.model)
    assert seen == [TextChunk("So")]
    assert isinstance(failure, StreamInterrupted)
    assert "model runner has unexpectedly stopped" in failure.user_message


async def test_a_stream_that_ends_without_its_end_marker(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(Turn([Text("partial")], done=False))
    seen, failure = await _consume(backend.client(http_client), backend.model)
    assert seen == [TextChunk("partial")]
    assert isinstance(failure, StreamInterrupted)


@pytest.mark.parametrize("status", [400, 500, 503])
async def test_http_errors_carry_status_and_server_text(
    backend: Backend, http_client: httpx.AsyncClient, status: int
) -> None:
    backend.server.script(error(status, "the GPU caught fire"))
    _, failure = await _consume(backend.client(http_client), backend.model)
    assert isinstance(failure, HTTPError)
    assert failure.status == status
    assert f"HTTP {status}" in failure.user_message
    assert "the GPU caught fire" in failure.user_message


async def test_json_error_bodies_are_reduced_to_their_message(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(error(500, {"error": {"message": "out of memory", "code": 500}}))
    _, failure = await _consume(backend.client(http_client), backend.model)
    assert isinstance(failure, HTTPError)
    assert failure.server_text == "out of memory"


async def test_cancelling_the_task_closes_the_stream_at_once(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(Turn([Text("first"), Pause(60), Text("never")]))
    client = backend.client(http_client)
    first = asyncio.Event()

    async def consume() -> None:
        async for _ in client.chat(backend.model, QUESTION):
            first.set()

    task = asyncio.create_task(consume())
    await first.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The server is pausing for a minute; it only learns of the hang-up if the client closed.
    assert await asyncio.to_thread(backend.server.wait_disconnected, 10)


async def test_closing_the_stream_early_closes_the_connection(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(Turn([Text("first"), Pause(60), Text("never")]))
    stream = backend.client(http_client).chat(backend.model, QUESTION)
    assert await anext(aiter(stream)) == TextChunk("first")
    await stream.aclose()  # type: ignore[attr-defined]
    assert await asyncio.to_thread(backend.server.wait_disconnected, 10)


async def test_a_shared_http_client_stays_open(backend: Backend, http_client: httpx.AsyncClient) -> None:
    backend.server.script(reply("one"), reply("two"))
    first = backend.client(http_client)
    await collect(first.chat(backend.model, QUESTION))
    await first.aclose()
    assert not http_client.is_closed
    second = backend.client(None)
    await collect(second.chat(backend.model, QUESTION))
    await second.aclose()
    assert len(backend.server.chats) == 2

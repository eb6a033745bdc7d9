"""The idle timeout: only a piece of the answer moves it on. Blank keep-alive lines, SSE comments
and empty chunks do not, so a server that trickles them still runs out of time; a slow answer that
keeps coming never does, however long it takes in all. Each test runs against both fakes."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from studio.llm.client import ChatClient, make_client
from studio.llm.errors import LLMError, Timeout
from studio.llm.types import Message, StreamEvent, TextChunk
from tests.fakes.chatserver import ScriptedChatServer
from tests.fakes.fixtures import OLLAMA_MODELS, OPENAI_MODEL, TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI
from tests.fakes.script import Text, Trickle, Turn, reply
from tests.fakes.streams import collect, text_of

QUESTION = [Message("user", "hello")]
# Guards a test against a client that never gives up; the tests assert on what ends them, not on
# how long it took.
GUARD = 60


@dataclass
class Backend:
    name: str
    server: ScriptedChatServer
    model: str
    empty_chunk: str

    def client(self, http: httpx.AsyncClient, idle: float) -> ChatClient:
        return make_client(self.name, self.server.url, http, idle_timeout=idle)


@pytest.fixture(params=["ollama", "openai"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    if request.param == "ollama":
        server: ScriptedChatServer = FakeOllama(OLLAMA_MODELS)
        empty = '{"model": "m", "message": {"role": "assistant", "content": ""}, "done": false}\n'
        found = Backend("ollama", server, TOOL_MODEL, empty)
    else:
        server = FakeOpenAI({OPENAI_MODEL: []})
        empty = 'data: {"choices": [{"index": 0, "delta": {"content": ""}}]}\n\n'
        found = Backend("openai", server, OPENAI_MODEL, empty)
    with server:
        yield found


async def _until_failure(client: ChatClient, model: str) -> tuple[list[StreamEvent], LLMError]:
    seen: list[StreamEvent] = []
    with pytest.raises(LLMError) as info:
        async with asyncio.timeout(GUARD):
            async for event in client.chat(model, QUESTION):
                seen.append(event)
    return seen, info.value


@pytest.mark.parametrize("keep_alive", ["\n", " \r\n"])
async def test_blank_lines_do_not_reset_the_idle_clock(
    backend: Backend, http_client: httpx.AsyncClient, keep_alive: str
) -> None:
    backend.server.script(Turn([Text("Hal"), Trickle(keep_alive, every=0.05)]))
    seen, failure = await _until_failure(backend.client(http_client, 0.5), backend.model)
    assert seen == [TextChunk("Hal")]
    assert isinstance(failure, Timeout)
    assert failure.phase == "idle"
    assert "sent no answer for 0.5 s" in failure.user_message


async def test_sse_comments_do_not_reset_the_idle_clock(
    fake_openai: FakeOpenAI, http_client: httpx.AsyncClient
) -> None:
    fake_openai.script(Turn([Text("Hal"), Trickle(": keep-alive\n\n", every=0.05)]))
    client = make_client("openai", fake_openai.url, http_client, idle_timeout=0.5)
    seen, failure = await _until_failure(client, OPENAI_MODEL)
    assert seen == [TextChunk("Hal")]
    assert isinstance(failure, Timeout)


async def test_empty_chunks_do_not_reset_the_idle_clock(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    backend.server.script(Turn([Trickle(backend.empty_chunk, every=0.05)]))
    seen, failure = await _until_failure(backend.client(http_client, 0.5), backend.model)
    assert seen == []
    assert isinstance(failure, Timeout)


async def test_a_slow_answer_that_keeps_coming_is_never_cut(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    pieces = [f"{n} " for n in range(12)]
    # Each piece comes well inside the idle timeout; all of them together take longer than it.
    backend.server.script(reply(*pieces, pause=0.1))
    async with asyncio.timeout(GUARD):
        events = await collect(backend.client(http_client, 1.0).chat(backend.model, QUESTION))
    assert text_of(events) == "".join(pieces)


async def test_the_idle_clock_does_not_run_while_the_consumer_is_busy(
    backend: Backend, http_client: httpx.AsyncClient
) -> None:
    """The deadline bounds waiting for the server, never the consumer's own work between pieces
    (an approval, a slow terminal): a consumer busier than the idle timeout gets the whole answer."""
    backend.server.script(reply("one ", "two"))
    events: list[StreamEvent] = []
    async with asyncio.timeout(GUARD):
        async for event in backend.client(http_client, 0.2).chat(backend.model, QUESTION):
            events.append(event)
            # The consumer's work, not synchronisation: longer than the idle timeout.
            await asyncio.sleep(0.6)
    assert text_of(events) == "one two"


async def test_a_connection_that_is_never_accepted_times_out(http_client: httpx.AsyncClient) -> None:
    """A listening socket whose backlog is full: the kernel drops the next SYN, so connecting
    hangs as it does to a firewalled host."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        fillers = [socket.socket() for _ in range(4)]
        for filler in fillers:
            filler.setblocking(False)
            filler.connect_ex(listener.getsockname())
        try:
            client = make_client("ollama", url, http_client, connect_timeout=0.3)
            with pytest.raises(Timeout) as info:
                async with asyncio.timeout(GUARD):
                    await collect(client.chat(TOOL_MODEL, QUESTION))
        finally:
            for filler in fillers:
                filler.close()
    assert info.value.phase == "connect"
    assert "within 0.3 s" in info.value.user_message
    assert "--connect-timeout" in info.value.user_message

"""The embedding client: both server kinds, order kept, bad answers turned into clear errors."""

from __future__ import annotations

import math

import pytest

from studio.llm.embeddings import BATCH, EmbeddingEndpoint, embed
from studio.llm.errors import BadResponse, LLMError, ServerNotRunning
from tests.fakes.httpserver import Exchange, Request, ScriptedHTTPServer
from tests.fakes.ollama import FakeOllama
from tests.fakes.openai import FakeOpenAI


class _Answering(ScriptedHTTPServer):
    def __init__(self, status: int, body: object) -> None:
        super().__init__()
        self.status = status
        self.body = body

    async def respond(self, request: Request, exchange: Exchange) -> None:
        await exchange.send(self.status, self.body)


def test_ollama_batches_and_returns_unit_vectors_in_order() -> None:
    texts = [f"text number {i}" for i in range(BATCH + 3)]
    with FakeOllama({"m": []}) as server:
        vectors = embed(EmbeddingEndpoint("ollama", server.url, "m"), texts)
        assert len(server.requests_to("/api/embed")) == 2
    assert len(vectors) == len(texts)
    assert all(math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-9) for v in vectors)


def test_openai_answers_out_of_order_are_put_back_in_order() -> None:
    with FakeOpenAI({"m": []}) as server:
        endpoint = EmbeddingEndpoint("openai", server.url + "/v1", "m")
        slides, csv = embed(endpoint, ["slides", "csv"])
        (again,) = embed(endpoint, ["slides"])
    assert slides == again and slides != csv


@pytest.mark.parametrize(
    ("status", "body", "error", "words"),
    [
        (404, {"error": "model not found"}, LLMError, "answered 404"),
        (200, {"embeddings": [[0.0, 0.0]]}, BadResponse, "all zeros"),
        (200, {"embeddings": [["a"]]}, BadResponse, "not a list of numbers"),
        (200, {"embeddings": []}, BadResponse, "one embedding per text"),
        (200, "<html>proxy</html>", BadResponse, "not JSON"),
    ],
)
def test_bad_answers_become_errors_saying_what_is_wrong(
    status: int, body: object, error: type[Exception], words: str
) -> None:
    with _Answering(status, body) as server, pytest.raises(error, match=words):
        embed(EmbeddingEndpoint("ollama", server.url, "m"), ["x"])


def test_no_server_says_how_to_go_on() -> None:
    server = FakeOllama({"m": []}).start()
    url = server.url
    server.stop()
    with pytest.raises(ServerNotRunning, match="without --embed-model"):
        embed(EmbeddingEndpoint("ollama", url, "m"), ["x"])

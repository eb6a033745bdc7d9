"""The embedding client: both server kinds, order kept, bad answers turned into clear errors."""

from __future__ import annotations

import math

import pytest

from studio.llm.embeddings import BATCH, EmbeddingEndpoint, embed, embedder_for
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


@pytest.mark.parametrize(
    ("backend", "model", "words"),
    [
        ("ollama", "", "needs a model name"),
        ("openai", "", "needs a model name"),
        ("local", "bge-small", "runs all-MiniLM-L6-v2 only"),
        ("cohere", "m", "unknown embedding backend 'cohere'"),
    ],
)
def test_a_choice_of_embedder_that_cannot_work_says_why(backend: str, model: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        embedder_for(backend, model, "http://127.0.0.1:1")


def test_each_embedder_keys_its_vectors_by_how_it_is_run() -> None:
    ollama = embedder_for("ollama", "m", "http://a")
    openai = embedder_for("openai", "m", "http://a")
    local = embedder_for("local", "ALL-MiniLM-L6-v2", "")
    assert len({ollama.key, openai.key, local.key}) == 3
    assert ollama.key == "ollama:http://a:m"

"""Text embeddings for search: an `Embedder` turns texts into unit vectors. Two kinds: a model
server (`EmbeddingEndpoint`: Ollama's `/api/embed` or an OpenAI-compatible `/v1/embeddings`, as
llama.cpp's server, LM Studio and vLLM answer), and a model run in this process
(`studio.llm.minilm`).

Blocking on purpose: search runs in a worker thread in the window and straight in the CLI, and
both send a batch of texts and wait for one answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import httpx

from studio.llm.errors import BadResponse, LLMError, ServerNotRunning
from studio.llm.transport import checked_url

EmbeddingKind = Literal["ollama", "openai"]
EMBED_BACKENDS = ("ollama", "openai", "local")
BATCH = 64
MAX_ANSWER = 64 << 20


class Embedder(Protocol):
    """What search needs of an embedding model. `key` names the model and how it is run, so that
    vectors kept from one are never compared with another's."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order; LLMError saying what to do when it cannot."""
        ...


@dataclass(frozen=True, slots=True)
class EmbeddingEndpoint:
    kind: EmbeddingKind
    url: str
    model: str
    timeout: float = 60.0

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.url}:{self.model}"

    @property
    def label(self) -> str:
        return f"{self.model} at {self.url}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return embed(self, texts)


def embedder_for(backend: str, model: str, url: str, timeout: float = 60.0) -> Embedder:
    """The embedder a user picked: `local` runs all-MiniLM-L6-v2 in this process (`model` must be
    empty or that name; every caller shares one, `minilm.shared`); `ollama` and `openai` ask the
    server at `url` for `model`. Raises ValueError saying what is wrong with the choice."""
    if backend == "local":
        from studio.llm.minilm import MODEL_NAME, shared

        if model and model.lower() != MODEL_NAME.lower():
            raise ValueError(
                f"the local embedding backend runs {MODEL_NAME} only, not {model!r}; leave the model "
                "empty, or serve that model with Ollama or an OpenAI-compatible server"
            )
        return shared()
    if backend not in ("ollama", "openai"):
        raise ValueError(f"unknown embedding backend {backend!r}: pick one of {', '.join(EMBED_BACKENDS)}")
    if not model:
        raise ValueError(f"the {backend} embedding backend needs a model name (e.g. nomic-embed-text)")
    kind: EmbeddingKind = "ollama" if backend == "ollama" else "openai"
    return EmbeddingEndpoint(kind, url, model, timeout)


def search_embedder(server_kind: str = "", server_url: str = "", embed_model: str = "") -> Embedder | None:
    """The embedding model search uses when one is at hand: `embed_model` on the chat's server
    (Ollama or OpenAI-compatible) when the user named one, else all-MiniLM-L6-v2 in this process
    when it is installed, else None (search ranks by words only). The in-process model is
    `minilm.shared`: its weights are read on its first use, and every search shares them."""
    if embed_model.strip() and server_kind in ("ollama", "openai"):
        return embedder_for(server_kind, embed_model.strip(), server_url)
    from studio.llm import minilm

    return minilm.shared() if minilm.available() else None


def local_model_installed() -> bool:
    """Whether all-MiniLM-L6-v2 and what runs it are installed, so that the `local` backend can
    run; found without loading the model. Asked of `minilm` on each call, not bound once, so
    that the window's tests can say it is missing."""
    from studio.llm import minilm

    return minilm.available()


def embed(endpoint: EmbeddingEndpoint, texts: Sequence[str]) -> list[list[float]]:
    """One unit-length vector per text, in order. Raises LLMError with a message a person can
    act on when the server is not there or answers something that is not embeddings."""
    base = checked_url(endpoint.url).rstrip("/")
    vectors: list[list[float]] = []
    timeout = httpx.Timeout(endpoint.timeout, connect=10.0)
    with httpx.Client(timeout=timeout) as client:
        for start in range(0, len(texts), BATCH):
            batch = list(texts[start : start + BATCH])
            vectors.extend(_embed_batch(client, endpoint, base, batch))
    return vectors


def _embed_batch(
    client: httpx.Client, endpoint: EmbeddingEndpoint, base: str, batch: list[str]
) -> list[list[float]]:
    if endpoint.kind == "ollama":
        url = base + "/api/embed"
    else:
        url = base + ("/embeddings" if base.endswith("/v1") else "/v1/embeddings")
    try:
        response = client.post(url, json={"model": endpoint.model, "input": batch})
    except httpx.ConnectError:
        raise ServerNotRunning(
            endpoint.url, "Start the embedding server, or search without --embed-model."
        ) from None
    except httpx.HTTPError as exc:
        raise LLMError(f"The embedding server at {endpoint.url} failed: {exc}.") from None
    if response.status_code != 200:
        raise LLMError(
            f"The embedding server at {endpoint.url} answered {response.status_code} for the "
            f"model {endpoint.model!r}: {response.text[:300]}. Check that the model is an "
            "embedding model and is installed."
        )
    if len(response.content) > MAX_ANSWER:
        raise _bad(url, f"the answer is larger than {MAX_ANSWER} bytes")
    try:
        data: Any = response.json()
    except ValueError:
        raise _bad(url, "the answer is not JSON") from None
    raw = _vectors_of(data, endpoint.kind)
    if raw is None or len(raw) != len(batch):
        raise _bad(url, "the answer does not hold one embedding per text")
    return [_unit(vector, url) for vector in raw]


def _bad(url: str, detail: str) -> BadResponse:
    return BadResponse(url, detail, "Check that the model is an embedding model.")


def _vectors_of(data: Any, kind: EmbeddingKind) -> list[Any] | None:
    if not isinstance(data, dict):
        return None
    if kind == "ollama":
        found = data.get("embeddings")
        return found if isinstance(found, list) else None
    items = data.get("data")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        return None
    ordered = sorted(items, key=lambda item: item["index"] if isinstance(item.get("index"), int) else 0)
    return [item.get("embedding") for item in ordered]


def _unit(vector: Any, url: str) -> list[float]:
    if (
        not isinstance(vector, list)
        or not vector
        or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vector)
    ):
        raise _bad(url, "an embedding is not a list of numbers")
    norm = math.sqrt(sum(float(x) * float(x) for x in vector))
    if not math.isfinite(norm) or norm == 0.0:
        raise _bad(url, "an embedding is all zeros or not finite")
    return [float(x) / norm for x in vector]

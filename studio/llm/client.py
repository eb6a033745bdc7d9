"""The protocol every model backend implements, and the factory the app uses to make one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

import httpx

from studio.llm.embedded import BACKEND_NAME as EMBEDDED
from studio.llm.embedded import START_HINT as EMBEDDED_START_HINT
from studio.llm.ollama import OllamaClient
from studio.llm.openai import DEFAULT_URL as OPENAI_DEFAULT_URL
from studio.llm.openai import OpenAIClient
from studio.llm.transport import CONNECT_TIMEOUT, IDLE_TIMEOUT
from studio.llm.types import DEFAULT_CONTEXT_SIZE, Message, ModelInfo, StreamEvent, ToolSpec

BACKENDS = ("ollama", "openai", EMBEDDED)


class ChatClient(Protocol):
    """A model server. Every method raises `LLMError` subclasses with a message for the user.

    `chat` returns an async generator: iterate it for the events; the HTTP stream closes when the
    generator finishes, is closed (`aclose()`, or `contextlib.aclosing`) or when the task iterating
    it is cancelled. A consumer that stops early should close it rather than wait for the garbage
    collector.
    """

    backend_name: str
    base_url: str

    async def list_models(self) -> list[ModelInfo]: ...

    async def model_info(self, name: str) -> ModelInfo: ...

    async def context_length(self, model: str) -> int | None:
        """The context `model` gets on this server, in tokens; None when the server does not say.
        Fit the prompt (the catalog above all) to it; Ollama's client also sends it as `num_ctx`
        from then on."""
        ...

    def chat(
        self,
        model: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None = None,
        think: bool = False,
        tool_choice: str | None = None,
        options: dict[str, Any] | None = None,
        schema: dict[str, Any] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """Stream the model's answer. With `schema` (a JSON schema) the reply is constrained to
        JSON text matching it (llama.cpp's `json_schema`, Ollama's `format`) and `tools` are not
        sent: servers do not combine the two."""
        ...

    async def aclose(self) -> None: ...


def make_client(
    backend: str,
    url: str | None,
    http: httpx.AsyncClient | None,
    *,
    api_key: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float = IDLE_TIMEOUT,
    context_size: int = DEFAULT_CONTEXT_SIZE,
) -> ChatClient:
    """A client for `backend` ("ollama", "openai" or "embedded") at `url` (None: the backend's
    default; the embedded engine's URL comes from `EmbeddedEngine.base_url`). The client uses
    `http` and never closes it; with `http=None` it makes its own and closes it in `aclose()`.
    `context_size` is the most context Ollama is asked for (other servers set theirs at start)."""
    if backend == "ollama":
        return OllamaClient(
            url, http, connect_timeout=connect_timeout, idle_timeout=idle_timeout, context_size=context_size
        )
    if backend == "openai":
        return OpenAIClient(
            url or OPENAI_DEFAULT_URL,
            http,
            api_key=api_key,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
        )
    if backend == EMBEDDED:
        if not url:
            raise ValueError("the embedded backend needs the running engine's URL")
        return OpenAIClient(
            url,
            http,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
            backend_name=EMBEDDED,
            start_hint=EMBEDDED_START_HINT,
        )
    raise ValueError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")

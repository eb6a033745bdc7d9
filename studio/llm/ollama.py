"""Client for Ollama's own API: `/api/chat` streams NDJSON, `/api/tags` lists models, `/api/show`
tells a model's capabilities."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncGenerator, Sequence
from contextlib import aclosing
from typing import Any
from urllib.parse import urlsplit

import httpx

from studio.llm.errors import (
    BadResponse,
    HTTPError,
    LLMError,
    ModelNotFound,
    StreamInterrupted,
    ThinkingUnsupported,
    ToolsUnsupported,
)
from studio.llm.transport import CONNECT_TIMEOUT, IDLE_TIMEOUT, HTTPTransport, message_of
from studio.llm.types import (
    DEFAULT_CONTEXT_SIZE,
    Message,
    ModelInfo,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolCall,
    ToolCallChunk,
    ToolSpec,
    context_tokens,
)

DEFAULT_PORT = 11434
DEFAULT_URL = f"http://127.0.0.1:{DEFAULT_PORT}"
START_HINT = "Start it with `ollama serve` (or open the Ollama app), or pick another backend in Settings."


def default_url(environ: dict[str, str] | None = None) -> str:
    """Ollama's address as Ollama itself reads `OLLAMA_HOST` (`host`, `host:port`, `:port` or a
    URL), with a wildcard listen address turned into loopback so it can be connected to."""
    raw = (environ if environ is not None else dict(os.environ)).get("OLLAMA_HOST", "").strip()
    if not raw:
        return DEFAULT_URL
    if "://" not in raw:
        raw = "http://" + raw
    parts = urlsplit(raw)
    host = parts.hostname or "127.0.0.1"
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        port = DEFAULT_PORT
    return f"{parts.scheme or 'http'}://{host}:{port}{parts.path.rstrip('/')}"


def _pull_hint(model: str) -> str:
    return f"Download it with `ollama pull {model}`, or pick a model from the list."


def _message_json(message: Message) -> dict[str, Any]:
    data: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.role == "assistant":
        if message.tool_calls:
            data["tool_calls"] = [
                {"function": {"name": call.name, "arguments": call.arguments}} for call in message.tool_calls
            ]
        if message.thinking:
            data["thinking"] = message.thinking
    if message.role == "tool" and message.tool_name:
        data["tool_name"] = message.tool_name
    return data


def _ollama_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Ollama's option names, accepting the OpenAI name `max_tokens` for `num_predict`."""
    result = dict(options or {})
    if "max_tokens" in result:
        result.setdefault("num_predict", result.pop("max_tokens"))
    return result


def _call_from(raw: Any) -> ToolCall | None:
    if not isinstance(raw, dict):
        return None
    function = raw.get("function")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    call_id = raw.get("id")
    return ToolCall.parse(
        call_id if isinstance(call_id, str) else None, function["name"], function.get("arguments")
    )


class OllamaClient:
    """Talks to one Ollama server.

    Attributes:
        backend_name: "ollama".
        base_url: the server's address, e.g. http://127.0.0.1:11434.
    """

    backend_name = "ollama"

    def __init__(
        self,
        base_url: str | None = None,
        http: httpx.AsyncClient | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        context_size: int = DEFAULT_CONTEXT_SIZE,
    ) -> None:
        self.context_size = context_size
        self._contexts: dict[str, int | None] = {}
        self._transport = HTTPTransport(
            base_url or default_url(),
            http,
            start_hint=START_HINT,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
        )
        self.base_url = self._transport.base_url

    async def aclose(self) -> None:
        await self._transport.aclose()

    def _status_error(self, model: str | None) -> Any:
        url = self.base_url

        def mapper(status: int, text: str) -> LLMError:
            lowered = text.lower()
            if model and status == 404 and "not found" in lowered:
                return ModelNotFound(model, _pull_hint(model), text)
            if model and "does not support tools" in lowered:
                return ToolsUnsupported(model, text)
            if model and "does not support thinking" in lowered:
                return ThinkingUnsupported(model, text)
            return HTTPError(url, status, text)

        return mapper

    async def version(self) -> str:
        data = await self._transport.get_json("/api/version", self._status_error(None))
        version = data.get("version") if isinstance(data, dict) else None
        return version if isinstance(version, str) else ""

    async def list_models(self) -> list[ModelInfo]:
        url = self._transport.url("/api/tags")
        data = await self._transport.get_json("/api/tags", self._status_error(None))
        entries = data.get("models") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise BadResponse(url, "no model list", self._transport.wrong_server_hint)
        models = []
        for number, entry in enumerate(entries, 1):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str) or not name:
                raise BadResponse(
                    url, f"model {number} of the list has no name: {entry!r:.200}",
                    self._transport.wrong_server_hint,
                )  # fmt: skip
            details = self._details(url, entry, f"the model {name!r}")
            for key in ("size", "modified_at", "digest"):
                if key in entry:
                    details[key] = entry[key]
            models.append(ModelInfo(name, None, None, details))
        return sorted(models, key=lambda info: info.name)

    def _details(self, url: str, data: dict[str, Any], what: str) -> dict[str, Any]:
        details = data.get("details")
        if details is None:
            return {}
        if not isinstance(details, dict):
            raise BadResponse(
                url, f"the details of {what} are not an object: {details!r:.200}",
                self._transport.wrong_server_hint,
            )  # fmt: skip
        return dict(details)

    async def model_info(self, name: str) -> ModelInfo:
        url = self._transport.url("/api/show")
        data = await self._transport.request_json(
            "POST", "/api/show", {"model": name}, self._status_error(name)
        )
        if not isinstance(data, dict):
            raise BadResponse(url, "not an object", self._transport.wrong_server_hint)
        details = self._details(url, data, f"the model {name!r}")
        capabilities = data.get("capabilities")
        if not isinstance(capabilities, list):
            return ModelInfo(name, None, None, details)
        details["capabilities"] = list(capabilities)
        return ModelInfo(name, "tools" in capabilities, "thinking" in capabilities, details)

    async def context_length(self, model: str) -> int | None:
        """The context, in tokens, that chats with `model` get: the model's own length (from
        `/api/show`), at most `context_size`; None when the server does not say.

        Once it is known, every chat with `model` sends it as `num_ctx` (unless the options name
        one): without it Ollama uses its own default (2,048 or 4,096) and silently drops the start
        of a longer prompt. Raises LLMError as `model_info` does."""
        if model not in self._contexts:
            data = await self._transport.request_json(
                "POST", "/api/show", {"model": model}, self._status_error(model)
            )
            info = data.get("model_info") if isinstance(data, dict) else None
            trained = None
            if isinstance(info, dict):
                architecture = info.get("general.architecture")
                trained = context_tokens(info.get(f"{architecture}.context_length"))
            self._contexts[model] = min(trained, self.context_size) if trained else None
        return self._contexts[model]

    def chat(
        self,
        model: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None = None,
        think: bool = False,
        tool_choice: str | None = None,
        options: dict[str, Any] | None = None,
        schema: dict[str, Any] | None = None,
    ) -> AsyncGenerator[StreamEvent, None]:
        """Stream the model's answer. Ollama cannot force a tool call, so `tool_choice` only acts
        when it is "none" (no tools offered); `schema` goes as `format` (see `ChatClient.chat`)."""
        body: dict[str, Any] = {
            "model": model,
            "messages": [_message_json(message) for message in messages],
            "stream": True,
            "think": think,
        }
        if schema is not None:
            body["format"] = schema
        elif tools and tool_choice != "none":
            body["tools"] = [tool.to_json() for tool in tools]
        sent = _ollama_options(options)
        if self._contexts.get(model) and "num_ctx" not in sent:
            sent["num_ctx"] = self._contexts[model]
        if sent:
            body["options"] = sent
        return self._stream(model, body)

    async def _stream(self, model: str, body: dict[str, Any]) -> AsyncGenerator[StreamEvent, None]:
        url = self._transport.url("/api/chat")
        hint = self._transport.wrong_server_hint
        end: StreamEnd | None = None
        clock = self._transport.idle_clock()
        lines = self._transport.stream_lines("/api/chat", body, self._status_error(model), clock)
        async with aclosing(lines):
            async for line in lines:
                if not line.strip():
                    continue
                try:
                    chunk = json.loads(line)
                except (ValueError, RecursionError):
                    raise BadResponse(url, f"a line that is not JSON: {line[:200]!r}", hint) from None
                if not isinstance(chunk, dict):
                    raise BadResponse(url, f"unexpected data {line[:200]!r}", hint)
                error = message_of(chunk) if "error" in chunk else ""
                if error:
                    raise StreamInterrupted(url, f"the server reported: {error}")
                message = chunk.get("message")
                if isinstance(message, dict):
                    thinking = message.get("thinking")
                    if isinstance(thinking, str) and thinking:
                        clock.progressed()
                        yield ThinkingChunk(thinking)
                    content = message.get("content")
                    if isinstance(content, str) and content:
                        clock.progressed()
                        yield TextChunk(content)
                    raw_calls = message.get("tool_calls") or []
                    if not isinstance(raw_calls, list):
                        raise BadResponse(url, f"tool calls that are not a list: {raw_calls!r:.200}", hint)
                    for raw in raw_calls:
                        call = _call_from(raw)
                        if call is None:
                            raise BadResponse(url, f"a tool call without a name: {raw!r:.200}", hint)
                        clock.progressed()
                        yield ToolCallChunk(call)
                if chunk.get("done"):
                    end = StreamEnd(_done_reason(chunk), _usage(chunk))
                    break
        if end is None:
            raise StreamInterrupted(url, "the stream ended before the server said it was done")
        yield end


def _done_reason(chunk: dict[str, Any]) -> str:
    reason = chunk.get("done_reason")
    return reason if isinstance(reason, str) and reason else "stop"


def _usage(chunk: dict[str, Any]) -> dict[str, Any]:
    usage: dict[str, Any] = {}
    for source, target in (
        ("prompt_eval_count", "prompt_tokens"),
        ("eval_count", "completion_tokens"),
        ("total_duration", "total_duration_ns"),
        ("load_duration", "load_duration_ns"),
    ):
        if isinstance(chunk.get(source), int):
            usage[target] = chunk[source]
    return usage

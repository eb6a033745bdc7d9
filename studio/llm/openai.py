"""Client for OpenAI-compatible servers (llama.cpp's server, LM Studio, vLLM, the embedded engine):
`/v1/chat/completions` streamed as server-sent events, `/v1/models` to list models.

A forced tool call (`tool_choice="required"` or a tool's name) on llama.cpp's server: llama.cpp lets
the model write text before the call, and a small model then writes only text. Its chat template
tells, through `/apply-template`, what the model's turn holds before a tool's name; the request
ends with that much of an assistant message, which llama.cpp continues with its tool-call grammar
already past the opening, so the first token generated is part of the call.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

import httpx

from studio.llm.errors import (
    BadResponse,
    HTTPError,
    LLMError,
    ModelNotFound,
    StreamInterrupted,
)
from studio.llm.jsonprefix import object_prefix
from studio.llm.transport import (
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    HTTPTransport,
    StatusMapper,
    checked_url,
    message_of,
)
from studio.llm.types import (
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

DEFAULT_URL = "http://127.0.0.1:8080"
START_HINT = (
    "Start your server (for example `llama-server -m model.gguf --port 8080`, LM Studio's local "
    "server, or vLLM), or check the URL in Settings."
)


def split_base_url(url: str) -> tuple[str, str]:
    """(server root, API root): `http://h:8080` and `http://h:8080/v1` both give
    ("http://h:8080", "http://h:8080/v1")."""
    url = url.rstrip("/")
    if url.endswith("/v1"):
        return url[: -len("/v1")], url
    return url, url + "/v1"


def _message_json(message: Message) -> dict[str, Any]:
    data: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        data["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
            for call in message.tool_calls
        ]
    if message.role == "tool":
        if message.tool_call_id:
            data["tool_call_id"] = message.tool_call_id
        if message.tool_name:
            data["name"] = message.tool_name
    return data


_PROBE_TOOL = "studio_probe_tool"
_PROBE_TOOLS = [
    ToolSpec(_PROBE_TOOL, "Shows how a call is written.", {"type": "object", "properties": {}}).to_json()
]
_PROBE_USER: dict[str, Any] = {"role": "user", "content": "Hi"}
_PROBE_CALL: list[dict[str, Any]] = [
    _PROBE_USER,
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "call_probe", "type": "function", "function": {"name": _PROBE_TOOL, "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_probe", "content": "ok"},
]


def find_call_opener(plain: str, with_call: str, name: str) -> str | None:
    """What a chat template writes in the model's turn before the name of a tool it calls: the text
    of `with_call` (a conversation with a call to `name`, rendered) between the end of `plain` (the
    same conversation up to the model's turn, rendered with the turn's opening) and `name`. None
    when the two do not line up that way, or nothing comes before the name."""
    if not with_call.startswith(plain):
        return None
    end = with_call.find(name, len(plain))
    return with_call[len(plain) : end] if end > len(plain) else None


def _openai_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Request fields from `options`, accepting Ollama's `num_predict` for `max_tokens`."""
    result = dict(options or {})
    if "num_predict" in result:
        result.setdefault("max_tokens", result.pop("num_predict"))
    return result


@dataclass(slots=True)
class _PartialCall:
    index: int | None
    id: str | None
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ToolCallAssembler:
    """Joins streamed tool-call deltas into whole calls.

    Deltas are matched by `index` (and `id`, for servers that reuse index 0 for every call); a
    delta with neither continues the last call. Arguments arrive as pieces of a JSON string and are
    parsed only once the call is complete.
    """

    def __init__(self) -> None:
        self._calls: list[_PartialCall] = []

    def __bool__(self) -> bool:
        return bool(self._calls)

    def add(self, delta: dict[str, Any]) -> None:
        index = delta.get("index") if isinstance(delta.get("index"), int) else None
        call_id = delta.get("id") if isinstance(delta.get("id"), str) and delta.get("id") else None
        call = self._find(index, call_id)
        if call is None:
            call = _PartialCall(index, call_id)
            self._calls.append(call)
        elif call_id and not call.id:
            call.id = call_id
        function = delta.get("function")
        if not isinstance(function, dict):
            return
        name = function.get("name")
        if isinstance(name, str) and name and name != call.name:
            call.name = call.name + name if call.name and not name.startswith(call.name) else name
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            call.arguments.append(arguments)
        elif isinstance(arguments, dict):
            call.arguments = [json.dumps(arguments)]

    def _find(self, index: int | None, call_id: str | None) -> _PartialCall | None:
        if call_id is not None:
            for call in self._calls:
                if call.id == call_id:
                    return call
        if index is not None:
            for call in reversed(self._calls):
                if call.index == index:
                    return None if call_id and call.id and call.id != call_id else call
            return None
        if call_id is None and self._calls:
            return self._calls[-1]
        return None

    def settled(self) -> bool:
        """Whether the last call's arguments are a whole JSON object, or can no longer become
        one: what streams after that is not part of the call."""
        if not self._calls or not self._calls[-1].arguments:
            return False
        return object_prefix("".join(self._calls[-1].arguments)).status != "partial"

    def finish(self) -> list[ToolCall]:
        """The whole calls, in the order they began; calls without a name are dropped."""
        calls = []
        for partial in self._calls:
            if not partial.name:
                continue
            calls.append(ToolCall.parse(partial.id, partial.name, "".join(partial.arguments)))
        self._calls = []
        return calls


async def _sse_data(lines: AsyncIterator[str]) -> AsyncGenerator[str, None]:
    """The `data` of each server-sent event; events end at a blank line (or the end of input)."""
    data: list[str] = []
    async for line in lines:
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value[1:] if value.startswith(" ") else value)
        elif name not in ("event", "id", "retry"):
            # Some servers write a bare JSON error line instead of an event.
            yield line
    if data:
        yield "\n".join(data)


def _carries_answer(choice: dict[str, Any], delta: dict[str, Any]) -> bool:
    """Whether a streamed choice holds a piece of the answer; an empty delta (some servers send
    them to keep the connection open) does not."""
    if choice.get("finish_reason") or delta.get("tool_calls"):
        return True
    return any(
        isinstance(delta.get(key), str) and delta[key]
        for key in ("content", "reasoning_content", "reasoning")
    )


class OpenAIClient:
    """Talks to one OpenAI-compatible server.

    Attributes:
        backend_name: "openai" (or the name given, e.g. "embedded").
        base_url: the server's address as given (with or without /v1).
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        http: httpx.AsyncClient | None = None,
        *,
        api_key: str | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        backend_name: str = "openai",
        start_hint: str = START_HINT,
    ) -> None:
        self.backend_name = backend_name
        base_url = checked_url(base_url)
        self.server_root, api_root = split_base_url(base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._transport = HTTPTransport(
            api_root,
            http,
            start_hint=start_hint,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
            headers=headers,
        )
        self._root = HTTPTransport(
            self.server_root,
            self._transport.http,
            start_hint=start_hint,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
            headers=headers,
        )
        self.base_url = base_url.rstrip("/")
        self._openers: dict[str, str | None] = {}

    async def aclose(self) -> None:
        await self._transport.aclose()

    def _status_error(self, model: str | None) -> StatusMapper:
        url = self.base_url

        def mapper(status: int, text: str) -> LLMError:
            if model and status == 404 and "model" in text.lower():
                return ModelNotFound(
                    model,
                    "Check the model name; pick one of the models the server lists.",
                    text,
                )
            return HTTPError(url, status, text)

        return mapper

    async def list_models(self) -> list[ModelInfo]:
        data = await self._transport.get_json("/models", self._status_error(None))
        entries = data.get("data") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise BadResponse(
                self._transport.url("/models"), "no model list", self._transport.wrong_server_hint
            )
        models = [
            ModelInfo(entry["id"], None, None, dict(entry))
            for entry in entries
            if isinstance(entry, dict) and isinstance(entry.get("id"), str)
        ]
        return sorted(models, key=lambda info: info.name)

    async def model_info(self, name: str) -> ModelInfo:
        """What the server tells about `name`. Only llama.cpp's server says whether the model can
        use tools (its `/props` chat template capabilities); other servers leave it unknown."""
        try:
            props = await self._root.get_json("/props", self._status_error(None))
        except (HTTPError, BadResponse):
            return ModelInfo(name)
        caps = props.get("chat_template_caps") if isinstance(props, dict) else None
        if not isinstance(caps, dict):
            return ModelInfo(name)
        tools = caps.get("supports_tools")
        details = {key: props[key] for key in ("model_path", "model_alias", "build_info") if key in props}
        details["chat_template_caps"] = caps
        return ModelInfo(name, bool(tools) if isinstance(tools, bool) else None, None, details)

    async def context_length(self, model: str) -> int | None:
        """The context, in tokens, the server gives `model`: llama.cpp's `n_ctx` (its `/props`),
        else what `/v1/models` lists for it (vLLM's `max_model_len`, `context_length`, llama.cpp's
        `meta.n_ctx_train`); None when the server does not say. An OpenAI-compatible request
        cannot change it: callers fit the prompt to it."""
        try:
            props = await self._root.get_json("/props", self._status_error(None))
        except (HTTPError, BadResponse):
            props = None
        settings = props.get("default_generation_settings") if isinstance(props, dict) else None
        if isinstance(settings, dict) and (n_ctx := context_tokens(settings.get("n_ctx"))):
            return n_ctx
        try:
            models = await self.list_models()
        except (HTTPError, BadResponse):
            return None
        for info in models:
            if info.name == model:
                meta = info.details.get("meta")
                train = meta.get("n_ctx_train") if isinstance(meta, dict) else None
                for value in (info.details.get("max_model_len"), info.details.get("context_length"), train):
                    if found := context_tokens(value):
                        return found
        return None

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
        """Stream the model's answer. `tool_choice` is sent as is ("auto", "required", "none", or a
        function name, which becomes the OpenAI object naming it); on llama.cpp's server a forced
        call is started for the model (see the module's docstring). `think` asks templates that
        know `enable_thinking` to think. `schema` goes as a `json_schema` response format, which
        llama.cpp's server turns into a grammar (see `ChatClient.chat`)."""
        body: dict[str, Any] = _openai_options(options)
        body.update(
            {
                "model": model,
                "messages": [_message_json(message) for message in messages],
                "stream": True,
                "stream_options": {"include_usage": True},
            }
        )
        forced: str | None = None
        if schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": schema, "strict": True},
            }
        elif tools:
            body["tools"] = [tool.to_json() for tool in tools]
            if tool_choice in ("auto", "required", "none"):
                body["tool_choice"] = tool_choice
            elif tool_choice:
                body["tool_choice"] = {"type": "function", "function": {"name": tool_choice}}
            if tool_choice and tool_choice not in ("auto", "none"):
                forced = tool_choice
        if think:
            body["chat_template_kwargs"] = {"enable_thinking": True}
        return self._stream(model, body, forced)

    async def _render(self, model: str, messages: list[dict[str, Any]]) -> str:
        """The prompt llama.cpp's server makes of `messages` (with the probe tool offered)."""
        body = {"model": model, "messages": messages, "tools": _PROBE_TOOLS}
        data = await self._root.request_json(
            "POST", "/apply-template", body, self._status_error(None)
        )
        prompt = data.get("prompt") if isinstance(data, dict) else None
        if not isinstance(prompt, str):
            raise BadResponse(
                self._root.url("/apply-template"), "no prompt", self._transport.wrong_server_hint
            )
        return prompt

    async def call_opener(self, model: str) -> str | None:
        """What `model`'s turn holds before a tool's name when it calls one, if the server is
        llama.cpp's and continues an unfinished assistant message; else None. Asked once per model."""
        if model in self._openers:
            return self._openers[model]
        opener = None
        try:
            plain = await self._render(model, [_PROBE_USER])
            found = find_call_opener(plain, await self._render(model, _PROBE_CALL), _PROBE_TOOL)
            if found is not None:
                started = [_PROBE_USER, {"role": "assistant", "content": found}]
                if await self._render(model, started) == plain + found:
                    opener = found
        except (HTTPError, BadResponse):
            # Not llama.cpp's server, or a template that cannot show a call: no head start.
            opener = None
        self._openers[model] = opener
        return opener

    async def _start_forced_call(self, model: str, body: dict[str, Any], choice: str) -> None:
        messages = body["messages"]
        if messages and messages[-1]["role"] == "assistant":
            return
        opener = await self.call_opener(model)
        if opener is None:
            return
        # The server knows no tool names in `tool_choice`; the name written after the opener
        # names the tool instead, and "required" keeps the call's grammar on from the start.
        named = choice != "required"
        messages.append({"role": "assistant", "content": opener + (choice if named else "")})
        body["tool_choice"] = "required"

    async def _stream(
        self, model: str, body: dict[str, Any], forced: str | None = None
    ) -> AsyncGenerator[StreamEvent, None]:
        if forced is not None:
            await self._start_forced_call(model, body, forced)
        url = self._transport.url("/chat/completions")
        hint = self._transport.wrong_server_hint
        calls = ToolCallAssembler()
        finish_reason: str | None = None
        cut = False
        usage: dict[str, Any] = {}
        clock = self._transport.idle_clock()
        lines = self._transport.stream_lines(
            "/chat/completions", body, self._status_error(model), clock
        )
        async with aclosing(lines), aclosing(_sse_data(lines)) as events:
            async for data in events:
                if data.strip() == "[DONE]":
                    break
                if not data.strip():
                    continue
                try:
                    event = json.loads(data)
                except (ValueError, RecursionError):
                    raise BadResponse(url, f"an event that is not JSON: {data[:200]!r}", hint) from None
                if not isinstance(event, dict):
                    raise BadResponse(url, f"unexpected data {data[:200]!r}", hint)
                if "error" in event or event.get("object") == "error":
                    raise StreamInterrupted(
                        url, f"the server reported: {message_of(event) or json.dumps(event)}"
                    )
                if isinstance(event.get("usage"), dict):
                    usage = dict(event["usage"])
                choices = event.get("choices") or []
                if not isinstance(choices, list):
                    raise BadResponse(url, f"choices that are not a list: {choices!r:.200}", hint)
                for choice in choices:
                    if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                        continue
                    delta = choice.get("delta") or choice.get("message")
                    if not isinstance(delta, dict):
                        delta = {}
                    if _carries_answer(choice, delta):
                        clock.progressed()
                    thinking = delta.get("reasoning_content") or delta.get("reasoning")
                    if isinstance(thinking, str) and thinking:
                        yield ThinkingChunk(thinking)
                    if isinstance(delta.get("content"), str) and delta["content"]:
                        yield TextChunk(delta["content"])
                    raw_calls = delta.get("tool_calls") or []
                    if not isinstance(raw_calls, list):
                        raise BadResponse(url, f"tool calls that are not a list: {raw_calls!r:.200}", hint)
                    for raw in raw_calls:
                        if isinstance(raw, dict):
                            calls.add(raw)
                    if forced is not None and calls.settled():
                        # A forced call is one call: a small model kept in the call's grammar
                        # otherwise writes on inside it up to the token cap.
                        finish_reason, cut = "tool_calls", True
                        break
                    if choice.get("finish_reason"):
                        finish_reason = choice["finish_reason"]
                        for call in calls.finish():
                            yield ToolCallChunk(call)
                if cut:
                    break
            else:
                if finish_reason is None:
                    raise StreamInterrupted(url, "the stream ended before the answer was complete")
        for call in calls.finish():
            yield ToolCallChunk(call)
        yield StreamEnd(finish_reason, usage)

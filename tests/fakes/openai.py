"""A scripted OpenAI-compatible server (as llama.cpp's, LM Studio or vLLM serve it):
`/v1/chat/completions` as server-sent events ending in `data: [DONE]`, `/v1/models`, `/health`,
`/v1/embeddings` (deterministic vectors from `fakes.embeddings`), and `/props` when `props` is
given (llama.cpp reports its template's tool support there).

    server = FakeOpenAI(models={"smol": []}).start()
    server.script(calls(Call("activate_skill", {"name": "pdf"}, pieces=4)))

Tool calls stream as deltas: the first carries index, id, type and name, the rest only pieces of
the JSON arguments. Thinking goes out as `reasoning_content` (or `reasoning_key="reasoning"`).
A chat for a model not in `models` gets 404 "The model `x` does not exist."; pass `models={}` to
accept any name, as llama.cpp's server does.
"""

from __future__ import annotations

import json
from typing import Any

from tests.fakes.chatserver import ScriptedChatServer
from tests.fakes.embeddings import texts_of, vector_for
from tests.fakes.httpserver import Exchange, Request
from tests.fakes.script import Call, Event, StreamError, Text, Thinking, Turn


def _event(data: dict[str, Any] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data)
    return f"data: {text}\n\n".encode()


def _split(text: str, pieces: int) -> list[str]:
    pieces = max(1, min(pieces, len(text) or 1))
    size = -(-len(text) // pieces) if text else 1
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class FakeOpenAI(ScriptedChatServer):
    chat_path = "/v1/chat/completions"
    content_type = "text/event-stream"
    raw_separator = b"\n\n"

    def __init__(
        self,
        models: dict[str, list[str]] | None = None,
        *,
        props: dict[str, Any] | None = None,
        reasoning_key: str = "reasoning_content",
        api_key: str | None = None,
    ) -> None:
        super().__init__(models)
        self.props = props
        # Fields /v1/models adds to a model's entry (vLLM's max_model_len, say).
        self.model_fields: dict[str, dict[str, Any]] = {}
        self.reasoning_key = reasoning_key
        self.api_key = api_key

    def refusal(self, body: dict[str, Any]) -> tuple[int, Any] | None:
        name = body.get("model", "")
        if self.models and name not in self.models:
            return 404, {
                "error": {
                    "message": f"The model `{name}` does not exist.",
                    "type": "NotFoundError",
                    "code": 404,
                }
            }
        return None

    def no_turn_left(self) -> tuple[int, Any]:
        return 500, {"error": {"message": "FakeOpenAI: no scripted turn left", "code": 500}}

    async def respond(self, request: Request, exchange: Exchange) -> None:
        if self.api_key and request.headers.get("authorization") != f"Bearer {self.api_key}":
            await exchange.send(401, {"error": {"message": "Invalid API Key", "code": 401}})
        elif request.path == "/v1/chat/completions" and request.method == "POST":
            await self.play_chat(request, exchange)
        elif request.path == "/v1/models":
            data = [
                {"id": name, "object": "model", "owned_by": "fake"} | self.model_fields.get(name, {})
                for name in self.models
            ]
            await exchange.send(200, {"object": "list", "data": data})
        elif request.path == "/v1/embeddings" and request.method == "POST":
            texts = texts_of(request.json)
            if texts is None:
                await exchange.send(400, {"error": {"message": "'input' is required", "code": 400}})
            else:
                data = [
                    {"object": "embedding", "index": i, "embedding": vector_for(t)}
                    for i, t in reversed(list(enumerate(texts)))
                ]
                await exchange.send(200, {"object": "list", "data": data})
        elif request.path == "/health":
            await exchange.send(200, {"status": "ok"})
        elif request.path == "/props" and self.props is not None:
            await exchange.send(200, self.props)
        else:
            await exchange.send(404, {"error": {"message": "File Not Found", "code": 404}})

    def _chunk(self, body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> bytes:
        return _event(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion.chunk",
                "model": body.get("model"),
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        )

    def encode_start(self, body: dict[str, Any]) -> bytes:
        return self._chunk(body, {"role": "assistant", "content": None})

    def encode_event(self, event: Event, body: dict[str, Any], call_index: int) -> bytes:
        if isinstance(event, Text):
            return self._chunk(body, {"content": event.text})
        if isinstance(event, Thinking):
            return self._chunk(body, {self.reasoning_key: event.text})
        if isinstance(event, Call):
            return self._call(event, body, call_index)
        if isinstance(event, StreamError):
            return _event({"error": {"code": 500, "message": event.message, "type": "server_error"}})
        raise TypeError(f"cannot encode {event!r}")

    def _call(self, call: Call, body: dict[str, Any], call_index: int) -> bytes:
        arguments = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
        index = call_index if call.index == "auto" else call.index
        out = b""
        for number, piece in enumerate(_split(arguments, call.pieces)):
            delta: dict[str, Any] = {"function": {"arguments": piece}}
            if index is not None:
                delta["index"] = index
            if number == 0:
                call_id = f"call_{call_index}" if call.id is None else call.id
                if call_id:
                    delta["id"] = call_id
                delta["type"] = "function"
                delta["function"]["name"] = call.name
            out += self._chunk(body, {"tool_calls": [delta]})
        return out

    def encode_finish(self, turn: Turn, body: dict[str, Any]) -> bytes:
        out = self._chunk(body, {}, turn.finish_reason)
        if (body.get("stream_options") or {}).get("include_usage"):
            prompt, completion = turn.usage
            usage = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
            out += _event({"id": "chatcmpl-fake", "choices": [], "usage": usage})
        return out + _event("[DONE]")

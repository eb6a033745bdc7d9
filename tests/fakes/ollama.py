"""A scripted Ollama server: `/api/chat` (NDJSON stream), `/api/tags`, `/api/show`, `/api/version`,
`/api/embed` (deterministic vectors from `fakes.embeddings`, for any model in `models`).

    server = FakeOllama(models={"qwen3:0.6b": ["completion", "tools", "thinking"]}).start()
    server.script(reply("Hel", "lo"), calls(Call("activate_skill", {"name": "pdf"})))
    ... point OllamaClient(server.url, http) at it ...
    server.chats[0]["tools"]     # what the client sent
    server.stop()

Like Ollama, it refuses a chat for an unknown model (404 "model ... not found, try pulling it
first"), tools for a model without "tools" (400 "... does not support tools") and `think: true`
for a model without "thinking" (400), before taking a turn from the script.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from tests.fakes.chatserver import ScriptedChatServer
from tests.fakes.embeddings import texts_of, vector_for
from tests.fakes.httpserver import Exchange, Request
from tests.fakes.script import Call, Event, StreamError, Text, Thinking, Turn

CREATED_AT = "2025-01-01T00:00:00Z"


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode() + b"\n"


class FakeOllama(ScriptedChatServer):
    chat_path = "/api/chat"
    content_type = "application/x-ndjson"
    version = "0.12.6"
    # What /api/tags answers instead of the models' list, when set (a malformed list, say).
    tags: Any = None
    # The `fake.context_length` /api/show reports per model (none when a model is not here).
    context_lengths: ClassVar[dict[str, Any]] = {}
    # The `details.parameter_size` of every model: a model the studio does not guide unless told.
    parameter_size: Any = "8B"

    def refusal(self, body: dict[str, Any]) -> tuple[int, Any] | None:
        name = body.get("model", "")
        if name not in self.models:
            return 404, {"error": f'model "{name}" not found, try pulling it first'}
        capabilities = self.models[name]
        if body.get("tools") and "tools" not in capabilities:
            return 400, {"error": f"registry.ollama.ai/library/{name} does not support tools"}
        if body.get("think") is True and "thinking" not in capabilities:
            return 400, {"error": f'"{name}" does not support thinking'}
        return None

    async def respond(self, request: Request, exchange: Exchange) -> None:
        if request.path == "/api/chat" and request.method == "POST":
            await self.play_chat(request, exchange)
        elif request.path == "/api/version":
            await exchange.send(200, {"version": self.version})
        elif request.path == "/api/tags":
            tags = self.tags if self.tags is not None else {"models": [self._tag(n) for n in self.models]}
            await exchange.send(200, tags)
        elif request.path == "/api/show" and request.method == "POST":
            name = (request.json or {}).get("model", "")
            if name in self.models:
                await exchange.send(200, self._show(name))
            else:
                await exchange.send(404, {"error": f"model '{name}' not found"})
        elif request.path == "/api/embed" and request.method == "POST":
            await self._embed(request, exchange)
        else:
            await exchange.send(404, "404 page not found")

    async def _embed(self, request: Request, exchange: Exchange) -> None:
        body = request.json or {}
        name = body.get("model", "")
        texts = texts_of(body)
        if name not in self.models:
            await exchange.send(404, {"error": f'model "{name}" not found, try pulling it first'})
        elif texts is None:
            await exchange.send(400, {"error": "invalid input type"})
        else:
            await exchange.send(200, {"model": name, "embeddings": [vector_for(t) for t in texts]})

    def _tag(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "model": name,
            "modified_at": CREATED_AT,
            "size": 1_000_000,
            "digest": "0" * 64,
            "details": {"format": "gguf", "family": "fake", "parameter_size": self.parameter_size},
        }

    def _show(self, name: str) -> dict[str, Any]:
        return {
            "details": {"format": "gguf", "family": "fake", "parameter_size": self.parameter_size},
            "model_info": {"general.architecture": "fake"}
            | ({"fake.context_length": self.context_lengths[name]} if name in self.context_lengths else {}),
            "capabilities": list(self.models[name]),
        }

    def _chunk(self, body: dict[str, Any], message: dict[str, Any], **rest: Any) -> bytes:
        message = {"role": "assistant", "content": "", **message}
        return _line({"model": body.get("model"), "created_at": CREATED_AT, "message": message, **rest})

    def encode_event(self, event: Event, body: dict[str, Any], call_index: int) -> bytes:
        if isinstance(event, Text):
            return self._chunk(body, {"content": event.text}, done=False)
        if isinstance(event, Thinking):
            return self._chunk(body, {"thinking": event.text}, done=False)
        if isinstance(event, Call):
            call: dict[str, Any] = {
                "function": {"index": call_index, "name": event.name, "arguments": event.arguments}
            }
            if event.id:
                call["id"] = event.id
            return self._chunk(body, {"tool_calls": [call]}, done=False)
        if isinstance(event, StreamError):
            return _line({"error": event.message})
        raise TypeError(f"cannot encode {event!r}")

    def encode_finish(self, turn: Turn, body: dict[str, Any]) -> bytes:
        prompt, completion = turn.usage
        return self._chunk(
            body,
            {},
            done=True,
            done_reason=turn.finish or "stop",
            total_duration=1_000_000,
            load_duration=1000,
            prompt_eval_count=prompt,
            eval_count=completion,
        )

"""The values that cross the boundary between the app and a model server.

Messages, tool specs and tool calls are backend-neutral; each client translates them to its own wire
format. A chat streams `StreamEvent`s: text and thinking as they arrive, tool calls only once they
are whole, and one `StreamEnd` last.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.llm.jsonrepair import repair_json

_DECODER = json.JSONDecoder()

Role = Literal["system", "user", "assistant", "tool"]


def new_call_id() -> str:
    """An id for a tool call whose server gave none (Ollama, calls written as text)."""
    return "call_" + uuid.uuid4().hex[:16]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A call the model asked for. `arguments` is always a dict; when the model's arguments were not
    a JSON object, it is empty and `invalid_arguments` holds what the model wrote."""

    id: str
    name: str
    arguments: dict[str, Any]
    invalid_arguments: str | None = None

    @classmethod
    def parse(cls, call_id: str | None, name: str, raw: Any) -> ToolCall:
        """A call whose arguments came as an object, as JSON text, or not at all. Text after a
        complete JSON object is ignored (some servers repeat the closing brace)."""
        call_id = call_id or new_call_id()
        if raw is None:
            return cls(call_id, name, {})
        if isinstance(raw, dict):
            return cls(call_id, name, raw)
        text = raw if isinstance(raw, str) else json.dumps(raw)
        if not text.strip():
            return cls(call_id, name, {})
        try:
            value, _ = _DECODER.raw_decode(text.strip())
        except (ValueError, RecursionError):
            value = _mended_object(text.strip())
        return cls(call_id, name, value) if isinstance(value, dict) else cls(call_id, name, {}, text)


def _mended_object(text: str) -> Any:
    """The slightly broken JSON object `text` is (see `jsonrepair`), or None."""
    repaired = repair_json(text)
    if repaired is None or text[repaired[1] :].strip():
        return None
    try:
        return json.loads(repaired[0])
    except (ValueError, RecursionError):
        return None


@dataclass(slots=True)
class Message:
    """One turn of the conversation. Tool results are `role="tool"` messages naming the tool
    (`tool_name`, used by Ollama) and the call they answer (`tool_call_id`, used by OpenAI)."""

    role: Role
    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    thinking: str | None = None
    tool_name: str | None = None
    tool_call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool offered to the model; `parameters` is a JSON schema of an object."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The tool as both Ollama's and the OpenAI API's `tools` entries write it."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """What a server says about a model. A capability is None when the server does not tell."""

    name: str
    supports_tools: bool | None = None
    supports_thinking: bool | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TextChunk:
    text: str


@dataclass(frozen=True, slots=True)
class ThinkingChunk:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCallChunk:
    call: ToolCall


@dataclass(frozen=True, slots=True)
class StreamEnd:
    """The last event of a chat: why the model stopped ("stop", "length", "tool_calls", ...) and the
    token counts the server reported (`prompt_tokens`, `completion_tokens` when known)."""

    finish_reason: str | None
    usage: dict[str, Any] = field(default_factory=dict)


StreamEvent = TextChunk | ThinkingChunk | ToolCallChunk | StreamEnd


DEFAULT_CONTEXT_SIZE = 8192
"""The context the studio asks a model server for when the settings do not say: enough for a
trimmed catalog and a few tool rounds, small enough for the KV cache of a laptop."""
_MAX_CONTEXT = 100_000_000


def context_tokens(value: Any) -> int | None:
    """`value` when it is a believable context length in tokens, else None (a server may send
    anything: text, a negative number, a bool)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < _MAX_CONTEXT:
        return value
    return None

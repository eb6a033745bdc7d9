"""Constrained replies: when a model's own tool calling is missing or fails, its reply is held by a
JSON schema (llama.cpp's `json_schema`, Ollama's `format`) to one of the tools with valid arguments
(the skills' names an enum) or, unless a call is required, a final answer.

The request then carries no tools: the reply's format is told in the system prompt, and for a model
without tool support the earlier calls and results are written as plain messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from studio.llm import Message, ToolCall, ToolSpec, new_call_id, object_prefix

ANSWER_KEY = "answer"
FORCED_MAX_TOKENS = 512
"""The most tokens a forced or constrained reply may take: a call, or an answer of a few
paragraphs; a small model forced into a call otherwise writes on to the end of its context."""


def reply_schema(tools: Sequence[ToolSpec], *, require_call: bool) -> dict[str, Any]:
    """The JSON schema of one reply: a call of one of `tools` (`{"tool": ..., "arguments": ...}`),
    or `{"answer": ...}` unless `require_call`."""
    branches: list[dict[str, Any]] = [
        {
            "type": "object",
            "properties": {
                "tool": {"type": "string", "enum": [tool.name]},
                "arguments": {**tool.parameters, "additionalProperties": False},
            },
            "required": ["tool", "arguments"],
            "additionalProperties": False,
        }
        for tool in tools
    ]
    if not require_call:
        branches.append({
            "type": "object",
            "properties": {ANSWER_KEY: {"type": "string"}},
            "required": [ANSWER_KEY],
            "additionalProperties": False,
        })  # fmt: skip
    return branches[0] if len(branches) == 1 else {"oneOf": branches}


def format_hint(tools: Sequence[ToolSpec], *, require_call: bool) -> str:
    """What the system prompt says of the reply's format."""
    calls = "; ".join(
        f"{tool.name} with {', '.join(tool.parameters.get('properties', {}))}" for tool in tools
    )
    answer = "" if require_call else ', or {"answer": "..."} to answer the user'
    return (
        "\nReply with one JSON object only: "
        f'{{"tool": "...", "arguments": {{...}}}} to call a tool ({calls}){answer}.'
    )


def read_reply(text: str) -> ToolCall | str | None:
    """The call or the answer a constrained reply holds; None when it holds neither (cut short,
    or not the schema's shape)."""
    state = object_prefix(text)
    if state.status != "complete":
        return None
    try:
        value = json.loads(text[: state.end])
    except (ValueError, RecursionError):
        return None
    tool, arguments = value.get("tool"), value.get("arguments")
    if isinstance(tool, str) and isinstance(arguments, dict):
        return ToolCall(new_call_id(), tool, arguments)
    answer = value.get(ANSWER_KEY)
    return answer if isinstance(answer, str) else None


def as_plain_messages(messages: Sequence[Message]) -> list[Message]:
    """`messages` for a chat template that knows no tools: each call written as the JSON object
    the model replied with, each result as a user message naming its tool."""
    plain = []
    for message in messages:
        if message.role == "assistant" and message.tool_calls:
            written = [json.dumps({"tool": c.name, "arguments": c.arguments}) for c in message.tool_calls]
            plain.append(Message("assistant", "\n".join(filter(None, [message.content, *written]))))
        elif message.role == "tool":
            plain.append(Message("user", f"Result of {message.tool_name or 'the tool'}:\n{message.content}"))
        else:
            plain.append(message)
    return plain

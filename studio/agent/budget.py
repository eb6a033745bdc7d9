"""What a chat request costs in tokens, and trimming the oldest turns so that it fits the model.

Estimates are `estimate_tokens`' (on the high side); a server that is asked more than its context
either refuses the request or silently drops its start (Ollama), which loses the system prompt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from studio.llm import Message, ToolSpec
from studio.skills.search import catalog

MESSAGE_OVERHEAD = 4
"""The tokens a chat template adds around each message (role markers, separators)."""
ANSWER_RESERVE = 512
"""The room kept for the model's reply, at most an eighth of a small context."""


def answer_reserve(context_length: int) -> int:
    return min(ANSWER_RESERVE, context_length // 8)


def message_tokens(message: Message) -> int:
    calls = "".join(call.name + json.dumps(call.arguments) for call in message.tool_calls)
    return MESSAGE_OVERHEAD + catalog.estimate_tokens(message.content) + catalog.estimate_tokens(calls)


def request_tokens(messages: Sequence[Message], tools: Sequence[ToolSpec] | None = None) -> int:
    """The estimated prompt of a request with `messages` and `tools`."""
    specs = json.dumps([tool.to_json() for tool in tools]) if tools else ""
    return sum(message_tokens(message) for message in messages) + catalog.estimate_tokens(specs)


@dataclass(frozen=True, slots=True)
class Trim:
    """A conversation fitted to a context.

    Attributes:
        messages: what to send: the conversation without its oldest turns when it did not fit.
        dropped_turns: the oldest turns (a user message and what answered it) left out.
        tokens: the request's estimate.
        fits: False when even the system prompt and the current turn are too long (`messages`
            is then the whole conversation).
    """

    messages: list[Message]
    dropped_turns: int
    tokens: int
    fits: bool


def fit_history(messages: Sequence[Message], tools: Sequence[ToolSpec] | None, context_length: int) -> Trim:
    """`messages` without as many of their oldest turns as it takes for the request, with room for
    the reply, to fit `context_length`. The system prompt (first) and the current turn (from the
    last user message on) are never left out. The conversation itself is not changed: the studio
    keeps and saves all of it."""
    limit = context_length - answer_reserve(context_length)
    tokens = request_tokens(messages, tools)
    if tokens <= limit:
        return Trim(list(messages), 0, tokens, True)
    current = max((i for i, m in enumerate(messages) if m.role == "user"), default=len(messages))
    start = 1 if messages and messages[0].role == "system" else 0
    costs = [message_tokens(message) for message in messages]
    cut, dropped = start, 0
    while tokens > limit and cut < current:
        end = next((i for i in range(cut + 1, current) if messages[i].role == "user"), current)
        tokens -= sum(costs[cut:end])
        cut, dropped = end, dropped + 1
    if tokens > limit:
        return Trim(list(messages), 0, request_tokens(messages, tools), False)
    return Trim([*messages[:start], *messages[cut:]], dropped, tokens, True)

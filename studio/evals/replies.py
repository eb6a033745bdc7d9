"""A model's whole answer as text: what the grader, the comparator, the description proposer and
the query writer each read, streamed and closed with the stream."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Sequence
from typing import Any, cast

from studio.llm import ChatClient, Message, StreamEvent, TextChunk


async def answer_text(client: ChatClient, model: str, messages: Sequence[Message],
                      options: dict[str, Any] | None = None) -> str:
    stream = cast(AsyncGenerator[StreamEvent, None],
                  client.chat(model, list(messages), options=options))
    parts: list[str] = []
    async with contextlib.aclosing(stream):
        async for event in stream:
            if isinstance(event, TextChunk):
                parts.append(event.text)
    return "".join(parts)

"""Helpers for reading a chat stream in tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

from studio.llm import StreamEnd, StreamEvent, TextChunk, ThinkingChunk, ToolCall, ToolCallChunk


async def collect(stream: AsyncIterator[StreamEvent]) -> list[StreamEvent]:
    return [event async for event in stream]


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextChunk))


def thinking_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, ThinkingChunk))


def calls_of(events: list[StreamEvent]) -> list[ToolCall]:
    return [e.call for e in events if isinstance(e, ToolCallChunk)]


def end_of(events: list[StreamEvent]) -> StreamEnd:
    assert isinstance(events[-1], StreamEnd), events
    return events[-1]

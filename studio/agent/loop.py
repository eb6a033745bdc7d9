"""The agent loop: one conversation turn as an async generator of typed events.

It streams the model's answer, takes the tool calls it makes (native ones, or calls a small model
wrote as text), runs them through `ToolExecutor` (policy, approval, run) and feeds the results
back, until the model answers without a call, a round cap is reached, or the model repeats itself.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio.agent.events import (
    Done,
    Error,
    Event,
    Notice,
    TextDelta,
    ThinkingDelta,
    ToolCallRequested,
    ToolFinished,
)
from studio.agent.execute import ToolExecutor
from studio.llm.client import ChatClient
from studio.llm.errors import BadURL, LLMError, ServerNotRunning, Timeout
from studio.llm.textcalls import extract_tool_calls
from studio.llm.types import (
    Message,
    StreamEnd,
    TextChunk,
    ThinkingChunk,
    ToolCall,
    ToolCallChunk,
)

DEFAULT_MAX_ROUNDS = 8
REPEAT_LIMIT = 3


@dataclass(slots=True)
class AgentConfig:
    model: str
    think: bool = False
    max_rounds: int = DEFAULT_MAX_ROUNDS
    # Applies to the first reply only, so that a forced call can still be answered afterwards.
    tool_choice: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


class CallRunner(Protocol):
    """Carries out a tool call in place of the executor: `studio.agent.fork.SkillModes` runs a
    skill the way its frontmatter says (another model, a fork)."""

    def execute(
        self, agent: Agent, call: ToolCall, messages: list[Message]
    ) -> AsyncIterator[Event]: ...


def _call_key(call: ToolCall) -> str:
    return call.name + "\x00" + json.dumps(call.arguments, sort_keys=True, default=str)


class Agent:
    """Runs turns of one conversation. `messages` is the history, system prompt first; a turn
    appends the assistant's messages and the tool results to it."""

    def __init__(self, client: ChatClient, executor: ToolExecutor, config: AgentConfig,
                 runner: CallRunner | None = None) -> None:
        self.client = client
        self.executor = executor
        self.config = config
        self.runner = runner
        self._capabilities_checked = False
        self._offer_tools = True
        self._offer_thinking = config.think

    async def _check_capabilities(self) -> AsyncIterator[Event]:
        """Notices about what the model cannot do. A server that cannot be reached raises, as the
        chat after it would wait out the same timeout; a server that cannot tell (no such
        endpoint, an odd answer) is not asked again and the chat goes on."""
        if self._capabilities_checked:
            return
        try:
            info = await self.client.model_info(self.config.model)
        except (ServerNotRunning, Timeout, BadURL):
            raise
        except LLMError:
            self._capabilities_checked = True
            return
        self._capabilities_checked = True
        if info.supports_tools is False:
            self._offer_tools = False
            yield Notice(
                f"{self.config.model} does not support tools, so it cannot load or run skills; "
                "chatting without them. Pick a model with tool support to try skills."
            )
        if self.config.think and info.supports_thinking is False:
            self._offer_thinking = False
            yield Notice(f"{self.config.model} does not support thinking; it is switched off.")

    async def run(self, messages: list[Message]) -> AsyncIterator[Event]:
        try:
            async for notice in self._check_capabilities():
                yield notice
        except LLMError as exc:
            yield Error(exc.user_message)
            yield Done("error", "", 0)
            return
        tools = self.executor.toolbox.specs() if self._offer_tools else None
        known = set(self.executor.toolbox_tool_names) if tools else set()
        recent: list[str] = []
        answer = ""
        usage: dict[str, Any] = {}
        for round_number in range(1, self.config.max_rounds + 1):
            text_parts: list[str] = []
            thinking_parts: list[str] = []
            calls: list[ToolCall] = []
            try:
                stream = self.client.chat(
                    self.config.model,
                    messages,
                    tools=tools,
                    think=self._offer_thinking,
                    tool_choice=self.config.tool_choice if tools and round_number == 1 else None,
                    options=self.config.options or None,
                )
                async for chunk in stream:
                    if isinstance(chunk, TextChunk):
                        text_parts.append(chunk.text)
                        yield TextDelta(chunk.text)
                    elif isinstance(chunk, ThinkingChunk):
                        thinking_parts.append(chunk.text)
                        yield ThinkingDelta(chunk.text)
                    elif isinstance(chunk, ToolCallChunk):
                        calls.append(chunk.call)
                    elif isinstance(chunk, StreamEnd):
                        usage = dict(chunk.usage or {})
            except LLMError as exc:
                yield Error(exc.user_message)
                yield Done("error", answer, round_number)
                return
            text = "".join(text_parts)
            if not calls and known:
                calls, text = extract_tool_calls(text, known)
            messages.append(
                Message(
                    role="assistant",
                    content=text,
                    tool_calls=list(calls),
                    thinking="".join(thinking_parts) or None,
                )
            )
            answer = text
            if not calls:
                yield Done("answered", answer, round_number, usage)
                return
            for call in calls:
                key = _call_key(call)
                recent = [*recent[-(REPEAT_LIMIT - 1):], key]
                if len(recent) == REPEAT_LIMIT and len(set(recent)) == 1:
                    message = (
                        f"stopped: the model asked for the same call ({call.name}) "
                        f"{REPEAT_LIMIT} times in a row"
                    )
                    yield Notice(message)
                    yield Done("repeated-call", answer, round_number, usage)
                    return
                yield ToolCallRequested(
                    call.id, call.name, dict(call.arguments),
                    _skill_of(call), self.executor.describe(call),
                )
                result_text = ""
                source = (self.runner.execute(self, call, messages) if self.runner is not None
                          else self.executor.execute(call))
                async for event in source:
                    if isinstance(event, ToolFinished):
                        result_text = event.result
                    yield event
                messages.append(
                    Message(
                        role="tool", content=result_text, tool_name=call.name, tool_call_id=call.id
                    )
                )
        yield Notice(
            f"stopped after {self.config.max_rounds} rounds of tool calls without a final answer"
        )
        yield Done("round-limit", answer, self.config.max_rounds, usage)


def _skill_of(call: ToolCall) -> str | None:
    value = call.arguments.get("name") if call.name == "activate_skill" else call.arguments.get("skill")
    return value if isinstance(value, str) else None

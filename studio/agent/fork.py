"""Running a skill the way its client would, from its frontmatter (seed: Eino's skill middleware).

- `model: M`: once the skill is activated inline, the chat's following requests go to M, when the
  server has it (otherwise a notice, and the chat stays on its model).
- `context: fork`: activating the skill starts a sub-agent whose conversation holds only the
  skill's content and the task the parent gave (`activate_skill`'s `task`); it has the same tools,
  policy and approver, and its final answer is the tool's result. `fork_with_context` starts the
  sub-agent from a copy of the conversation so far instead.
- `agent: NAME`: the fork runs as that saved agent (its model, system text and parameters).

The fork's events reach the chat wrapped in `Nested`, so they show inside the parent's tool card;
cancelling the parent's turn closes the fork's stream and tools with it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from typing import cast

from studio.agent.agents import AgentError, AgentSpec, AgentStore
from studio.agent.events import (
    Done,
    Error,
    Event,
    Nested,
    Notice,
    TextDelta,
    ToolCallRequested,
    ToolFinished,
    ToolStarted,
    ToolStatus,
)
from studio.agent.loop import Agent, AgentConfig
from studio.agent.tools import ACTIVATE, ToolError
from studio.llm.errors import LLMError
from studio.llm.types import Message, ToolCall
from studio.skills.clients import FORK_MODES

FORK_DEPTH_LIMIT = 3


@dataclass(frozen=True, slots=True)
class RunMode:
    """What a skill's frontmatter asks of the client running it."""

    context: str | None = None
    model: str | None = None
    agent: str | None = None

    @property
    def forks(self) -> bool:
        return self.context in FORK_MODES


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


class SkillModes:
    """Carries out `activate_skill` as the skill's `context`, `model` and `agent` say, and every
    other call as the executor does.

    Attributes:
        agents: where `agent: NAME` is looked up (None: no agents, so naming one is an error).
        depth: 0 for the chat itself, 1 inside a fork, ...
        limit: the deepest fork that may start; a fork asked for below it gets an error result.
    """

    def __init__(self, agents: AgentStore | None = None, depth: int = 0,
                 limit: int = FORK_DEPTH_LIMIT) -> None:
        self.agents = agents
        self.depth = depth
        self.limit = limit

    async def execute(self, agent: Agent, call: ToolCall,
                      messages: list[Message]) -> AsyncIterator[Event]:
        call = agent.executor.toolbox.repair_call(call)
        name = call.arguments.get("name") if call.name == ACTIVATE else None
        mode = self._mode(agent, name)
        if mode is None or not (mode.forks or mode.model):
            async for event in agent.executor.execute(call):
                yield event
            return
        if mode.forks:
            async for event in self._fork(agent, call, str(name), mode, messages):
                yield event
            return
        finished: ToolFinished | None = None
        async for event in agent.executor.execute(call):
            if isinstance(event, ToolFinished):
                finished = event
            yield event
        if finished is not None and finished.status == "ok" and mode.model:
            yield await self._switch_model(agent, str(name), mode.model)

    @staticmethod
    def _mode(agent: Agent, name: object) -> RunMode | None:
        if not isinstance(name, str):
            return None
        try:
            fields = agent.executor.toolbox.load(agent.executor.toolbox.entry(name).name).fields
        except (ToolError, OSError):
            return None  # the executor reports it when it tries
        return RunMode(_text(fields.get("context")), _text(fields.get("model")),
                       _text(fields.get("agent")))

    @staticmethod
    async def _has_model(agent: Agent, model: str) -> bool:
        try:
            return any(info.name == model for info in await agent.client.list_models())
        except LLMError:
            return False

    async def _switch_model(self, agent: Agent, skill: str, model: str) -> Notice:
        current = agent.config.model
        if model == current:
            return Notice(f"skill {skill} asks for {model}, which the chat already uses")
        if not await self._has_model(agent, model):
            return Notice(f"skill {skill} asks for the model {model}, which the server does not "
                          f"have; the chat stays on {current}. Pull it (`ollama pull {model}`) "
                          "to try the skill as its client would.")
        agent.config.model = model
        return Notice(f"skill {skill} asks for the model {model}: the chat's next answers "
                      f"come from {model} (was {current})")

    def _named_agent(self, name: str | None) -> AgentSpec | None:
        if name is None:
            return None
        if self.agents is None:
            raise AgentError(f"the skill names the agent {name!r}, but no agents are available "
                             "here; save one (or run the chat with --agentfile)")
        return self.agents.get(name)

    async def _fork(self, agent: Agent, call: ToolCall, name: str, mode: RunMode,
                    messages: list[Message]) -> AsyncIterator[Event]:
        yield ToolStarted(call.id, ACTIVATE, name, None, None)
        started = time.monotonic()

        def finished(status: ToolStatus, result: str) -> ToolFinished:
            return ToolFinished(call.id, ACTIVATE, status, result,
                                duration=time.monotonic() - started)

        if self.depth >= self.limit:
            yield finished("error", f"error: skill {name!r} forks, but forks are already "
                                    f"{self.depth} deep (the limit is {self.limit}); do its task "
                                    "here instead, without activating it")
            return
        try:
            content = agent.executor.toolbox.activate(name)
            named = self._named_agent(mode.agent)
        except (ToolError, OSError, AgentError) as exc:
            yield finished("error", f"error: {exc}")
            return
        model = mode.model or (named.model if named is not None else "") or agent.config.model
        notes: list[Event] = []
        if model != agent.config.model and not await self._has_model(agent, model):
            notes.append(Notice(f"skill {name} asks for the model {model}, which the server does "
                                f"not have; its fork runs on {agent.config.model}"))
            model = agent.config.model
        child = Agent(agent.client, agent.executor, AgentConfig(
            model, think=agent.config.think, max_rounds=agent.config.max_rounds,
            options={**agent.config.options, **(dict(named.parameters) if named else {})},
        ), SkillModes(self.agents, self.depth + 1, self.limit))
        conversation = _fork_messages(content, call, mode, messages,
                                      named.system if named is not None else "")
        notes.append(Notice(f"skill {name} runs in a fork ({mode.context}) on {model}"
                            + (f" as the agent {named.name}" if named is not None else "")))
        for note in notes:
            yield Nested(call.id, self.depth + 1, note)
        done: Done | None = None
        events = cast(AsyncGenerator[Event, None], child.run(conversation))
        async with contextlib.aclosing(events):
            async for event in events:
                if isinstance(event, Done):
                    done = event
                yield Nested(call.id, self.depth + 1, event)
        if done is not None and done.reason == "answered":
            yield finished("ok", done.text)
            return
        reason = done.reason if done is not None else "error"
        partial = f" Its last words: {done.text}" if done is not None and done.text else ""
        yield finished("error", f"error: the fork running skill {name!r} stopped without an "
                                f"answer ({reason}).{partial}")


def _fork_messages(content: str, call: ToolCall, mode: RunMode, messages: list[Message],
                   system: str) -> list[Message]:
    """The fork's first conversation: the skill and the task, after a copy of the parent's
    conversation for `fork_with_context` (without the call that started the fork, which has no
    result yet)."""
    task = _text(call.arguments.get("task"))
    prompt = content + ("\n\nYour task: " + task if task else
                        "\n\nFollow these instructions and give your final answer.")
    start: list[Message] = [Message("system", system)] if system else []
    if mode.context == "fork_with_context":
        copied = list(messages)
        if copied and copied[-1].role == "assistant" and any(
            c.id == call.id for c in copied[-1].tool_calls
        ):
            last = copied.pop()
            if last.content:
                copied.append(Message("assistant", last.content))
        if system:
            copied = [m for m in copied if m.role != "system"]
        start += copied
    return [*start, Message("user", prompt)]


def fork_text(nested: Nested) -> str:
    """What a fork's event adds to the text of the parent's tool card: the fork's answer as it
    streams, and a line for each of its calls, their outcomes, notices and errors (deeper forks
    indented); nothing for the rest."""
    event: Event = nested
    depth = 0
    while isinstance(event, Nested):
        event, depth = event.event, depth + 1
    indent = "  " * (depth - 1)
    if isinstance(event, TextDelta):
        return event.text
    if isinstance(event, ToolCallRequested):
        return f"\n{indent}→ {event.tool}: {event.summary}\n"
    if isinstance(event, ToolFinished):
        return f"{indent}  {event.status}\n"
    if isinstance(event, Notice):
        return f"{indent}{event.message}\n"
    if isinstance(event, Error):
        return f"{indent}error: {event.message}\n"
    return ""

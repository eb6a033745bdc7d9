"""Running a skill the way its client would, from its frontmatter (seed: Eino's skill middleware).

- `model: M`: once the skill is activated inline, the chat's following requests go to M, when the
  server has it (otherwise a notice, and the chat stays on its model).
- `context: fork`: activating the skill starts a sub-agent whose conversation holds only the
  skill's content and the task the parent gave (`activate_skill`'s `task`); it has the same tools,
  policy and approver, and its final answer is the tool's result. `fork_with_context` starts the
  sub-agent from a copy of the conversation so far instead.
- `agent: NAME`: the fork runs as that saved agent: its model, system text and parameters, and,
  when it names skills, only those (in its catalog and its tools).

A fork announces itself with `ForkStarted`; its events then reach the chat wrapped in `Nested`, so
they show inside the parent's tool card, and the approvals it asks for name it
(`ApprovalRequest.forks`). Cancelling the parent's turn closes the fork's stream and tools with it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from studio.agent.agents import AgentError, AgentSpec, AgentStore
from studio.agent.approval import ForkApprover
from studio.agent.events import (
    ChatNotice,
    Done,
    Event,
    ForkStarted,
    Nested,
    ToolFinished,
    ToolStarted,
    ToolStatus,
)
from studio.agent.loop import Agent, AgentConfig
from studio.agent.offload import off_loop
from studio.agent.prompt import system_prompt
from studio.agent.toolbook import ACTIVATE
from studio.agent.tools import SkillToolbox, ToolError
from studio.llm import LLMError, Message, ToolCall
from studio.skills import SkillSummary
from studio.skills.checks import clients
from studio.skills.scan import scan

FORK_DEPTH_LIMIT = 3


@dataclass(frozen=True, slots=True)
class RunMode:
    """What a skill's frontmatter asks of the client running it."""

    context: str | None = None
    model: str | None = None
    agent: str | None = None

    @property
    def forks(self) -> bool:
        return self.context in clients.FORK_MODES


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

    async def _switch_model(self, agent: Agent, skill: str, model: str) -> ChatNotice:
        current = agent.config.model
        if model == current:
            return ChatNotice(f"skill {skill} asks for {model}, which the chat already uses")
        if not await self._has_model(agent, model):
            return ChatNotice(f"skill {skill} asks for the model {model}, which the server does not "
                          f"have; the chat stays on {current}. Pull it (`ollama pull {model}`) "
                          "to try the skill as its client would.")
        agent.config.model = model
        return ChatNotice(f"skill {skill} asks for the model {model}: the chat's next answers "
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
            workspace = agent.executor.toolbox.workspace
            own = await _agent_skills(named, workspace)
        except (ToolError, OSError, AgentError) as exc:
            yield finished("error", f"error: {exc}")
            return
        model = mode.model or (named.model if named is not None else "") or agent.config.model
        notes: list[Event] = []
        if model != agent.config.model and not await self._has_model(agent, model):
            notes.append(ChatNotice(f"skill {name} asks for the model {model}, which the server does "
                                f"not have; its fork runs on {agent.config.model}"))
            model = agent.config.model
        toolbox = (SkillToolbox(own, workspace, unpacked=agent.executor.toolbox.unpacked)
                   if own is not None else None)
        executor = agent.executor.for_fork(ForkApprover(agent.executor.approver, name), toolbox)
        child = Agent(agent.client, executor, AgentConfig(
            model, think=agent.config.think, max_rounds=agent.config.max_rounds,
            options={**agent.config.options, **(dict(named.parameters) if named else {})},
        ), SkillModes(self.agents, self.depth + 1, self.limit))
        if model == agent.config.model:
            child.context_length = agent.context_length
        system = named.system if named is not None else ""
        if own is not None:
            catalog, _skipped = system_prompt(own)
            system = f"{system}\n\n{catalog}" if system else catalog
        conversation = _fork_messages(content, call, mode, messages, system)
        yield ForkStarted(call.id, name, mode.context or "fork", model,
                          named.name if named is not None else None)
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


async def _agent_skills(named: AgentSpec | None, workspace: Path) -> list[SkillSummary] | None:
    """A named agent's own skills (relative paths are the workspace's), or None when it names
    none and the fork keeps the chat's. A path that cannot be read, or no skill
    that loads, is an AgentError: the fork would not be the agent that was saved."""
    if named is None or not named.skills:
        return None
    paths = [workspace / Path(path).expanduser() for path in named.skills]
    collected = await off_loop(scan, paths)
    if collected.problems:
        raise AgentError(f"the agent {named.name!r} names skills that cannot be read: "
                         + "; ".join(collected.problems) + ". Fix its skills, or save it again")
    if not any(summary.loadable for summary in collected.skills):
        raise AgentError(f"the agent {named.name!r} has no skill that loads (its skills: "
                         f"{', '.join(named.skills)}); fix them, or save it again")
    return collected.skills


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

"""The agent loop: one conversation turn as an async generator of typed events.

It streams the model's answer, takes the tool calls it makes (native ones, or calls a small model
wrote as text), runs them through `ToolExecutor` (policy, approval, run) and feeds the results
back, until the model answers without a call, a round cap is reached, or the model repeats itself.

Each request is kept within the model's context (the oldest turns left out when needed). How a
round asks the model is a strategy in `rounds`: with its own tool calling; when the model has none,
or its call cannot be run (an unknown tool, arguments that are not an object, a call left in its
text), with the reply constrained by a JSON schema to a valid call or an answer; or guided, for a
small model, one step of a skill at a time.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio.agent.budget import fit_history
from studio.agent.events import ChatNotice, Done, Error, Event, ToolCallRequested, ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.guided.fill import FILL_MODEL
from studio.agent.guided.mode import CLI_HINT, auto_guided, model_parameters
from studio.agent.guided.replies import Guide
from studio.agent.rounds import Ask, ConstrainedRound, GuidedRound, NativeRound, Outcome, Round, skill_of
from studio.llm import BadURL, ChatClient, LLMError, Message, ServerNotRunning, Timeout, ToolCall, ToolSpec
from studio.settings import GuidedMode

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
    # Carry a small model through a skill one constrained step at a time (see `guided`): True or
    # "on", False or "off", or "auto": when the server says the model is small (`guided_mode`).
    guided: bool | GuidedMode = False
    # How the user changes `guided`, said in the notice that "auto" chose it (the CLI's option
    # or the window's setting).
    guided_hint: str = CLI_HINT
    # Guided, whether the model fills a run's arguments under a schema built from the skill
    # (`guided.fill`), or picks among commands put together from the user's words; None: when
    # the server says the model has `FILL_MODEL` parameters or more.
    guided_fill: bool | None = None
    # Guided, whether a model that fills writes each run whole instead (`guided.write`).
    guided_write: bool = False


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
    appends the assistant's messages and the tool results to it.

    Attributes:
        offered: the skills the tools name (the fitted catalog's), None for all.
        context_length: the model's context in tokens; when known, each request is kept within it
            by leaving the conversation's oldest turns out of it (`messages` keeps them).
    """

    def __init__(self, client: ChatClient, executor: ToolExecutor, config: AgentConfig,
                 runner: CallRunner | None = None) -> None:
        self.client = client
        self.executor = executor
        self.config = config
        self.offered: Collection[str] | None = None
        self.context_length: int | None = None
        self.runner = runner
        self._capabilities_checked = False
        self._native_tools = True
        self._can_constrain = True
        self._offer_thinking = config.think
        self._guide = Guide(executor.toolbox)
        self._guide.fills = bool(config.guided_fill)
        self._guide.writes = config.guided_write
        self._guided = config.guided in (True, "on")

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
        if self.config.guided_fill is None:
            size = model_parameters(info)
            self._guide.fills = size is not None and size[0] >= FILL_MODEL
        if self.config.guided == "auto" and (why := auto_guided(self.config.model, info,
                                                                   self.config.guided_hint)):
            self._guided = True
            yield ChatNotice(why)
        if info.supports_tools is False:
            self._native_tools = False
            if self.executor.toolbox.names:
                yield ChatNotice(
                    f"{self.config.model} has no tool calling of its own; its replies are "
                    "constrained to a tool call or an answer so that it can still use skills."
                )
        if self.config.think and info.supports_thinking is False:
            self._offer_thinking = False
            yield ChatNotice(f"{self.config.model} does not support thinking; it is switched off.")

    def _tools(self) -> list[ToolSpec]:
        """The tools this turn offers: natively, or as the choices of a constrained reply."""
        if self._native_tools:
            return self.executor.toolbox.specs(offered=self.offered)
        if self._can_constrain and self.executor.toolbox.names:
            return self.executor.toolbox.specs(offered=self.offered)
        return []

    def _round(self, tools: list[ToolSpec], retry: str, first: bool) -> Round:
        """How this round asks the model: guided, held to a valid call or an answer (a model
        without tool calling, or its own call failed), or with its own tool calling."""
        choice = self.config.tool_choice if tools and first else None
        if tools and self._can_constrain:
            if self._guided:
                return GuidedRound(self._guide, self.offered)
            if retry or not self._native_tools:
                return ConstrainedRound(tools, require_call=choice not in (None, "auto", "none"),
                                        plain=not self._native_tools)
        return NativeRound(tools, self.executor.toolbox, self.executor.toolbox_tool_names,
                           choice, may_retry=self._can_constrain and not retry)

    async def run(self, messages: list[Message]) -> AsyncIterator[Event]:
        try:
            async for notice in self._check_capabilities():
                yield notice
        except LLMError as exc:
            yield Error(exc.user_message)
            yield Done("error", "", 0)
            return
        recent: list[str] = []
        answer = ""
        usage: dict[str, Any] = {}
        retry = ""  # why this round is asked again, constrained: the model's own call failed
        trimmed = False  # the user was told that the oldest turns are left out
        asked = ""  # the model of the last request: `Done` says which model answered
        for round_number in range(1, self.config.max_rounds + 1):
            # Read each round: activating a skill with `model:` switches the chat's model mid-turn.
            model = self.config.model
            tools = self._tools()
            sent: list[Message] = messages
            if self.context_length:
                trim = fit_history(messages, tools, self.context_length)
                sent = trim.messages
                if trim.dropped_turns and not trimmed:
                    trimmed = True
                    turns = "turn was" if trim.dropped_turns == 1 else f"{trim.dropped_turns} turns were"
                    yield ChatNotice(
                        f"the conversation no longer fit {model}'s context ({self.context_length:,} "
                        f"tokens), so its oldest {turns} left out of what the model sees. Start a "
                        "new chat to begin afresh."
                    )
                if not trim.fits:
                    yield Error(
                        f"This turn does not fit {model}'s context of {self.context_length:,} tokens "
                        f"(about {trim.tokens:,} with the skills' catalog and tools, plus room for the "
                        "answer). Shorten the message, pin fewer skills, or pick a model with a longer "
                        "context.",
                        cause="request",
                    )
                    yield Done("error", answer, round_number, usage, model=asked)
                    return
            strategy = self._round(tools, retry, round_number == 1)
            asked = model
            outcome = Outcome()
            try:
                async for event in strategy.play(
                        self.client, Ask(model, sent, self.config.options, self._offer_thinking), outcome):
                    yield event
            except LLMError as exc:
                yield Error(exc.user_message)
                yield Done("error", answer, round_number, model=asked)
                return
            usage = _added(usage, outcome.usage)
            if outcome.kind == "failed":
                yield Done("error", answer, round_number, usage, model=asked)
                return
            if outcome.kind == "unheld":
                self._can_constrain = False
            if outcome.kind == "retry":
                retry = outcome.why
            if outcome.kind != "reply":
                continue
            retry = ""
            text, calls = outcome.text, outcome.calls
            messages.append(
                Message("assistant", text, tool_calls=list(calls), thinking=outcome.thinking or None)
            )
            answer = text
            if not calls:
                yield Done("answered", answer, round_number, usage, model=asked,
                           unverified=outcome.unverified)
                return
            for call in calls:
                key = _call_key(call)
                recent = [*recent[-(REPEAT_LIMIT - 1):], key]
                if len(recent) == REPEAT_LIMIT and len(set(recent)) == 1:
                    message = (
                        f"stopped: the model asked for the same call ({call.name}) "
                        f"{REPEAT_LIMIT} times in a row"
                    )
                    yield ChatNotice(message)
                    yield Done("repeated-call", answer, round_number, usage, model=asked)
                    return
                yield ToolCallRequested(
                    call.id, call.name, dict(call.arguments),
                    skill_of(call), self.executor.describe(call), strategy.held,
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
        yield ChatNotice(
            f"stopped after {self.config.max_rounds} rounds of tool calls without a final answer"
        )
        yield Done("round-limit", answer, self.config.max_rounds, usage, model=asked)


def _added(total: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """The token counts of a turn so far: each round's counts added (what a run of an eval cost),
    other keys as the last round gave them."""
    if not more:
        return total
    summed = {**total, **more}
    for key in ("prompt_tokens", "completion_tokens"):
        if isinstance(total.get(key), int) and isinstance(more.get(key), int):
            summed[key] = total[key] + more[key]
    return summed


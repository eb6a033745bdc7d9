"""The agent loop: one conversation turn as an async generator of typed events.

It streams the model's answer, takes the tool calls it makes (native ones, or calls a small model
wrote as text), runs them through `ToolExecutor` (policy, approval, run) and feeds the results
back, until the model answers without a call, a round cap is reached, or the model repeats itself.

Each request is kept within the model's context (the oldest turns left out when needed). When the
model has no tool calling of its own, or its call cannot be run (an unknown tool, arguments that are
not an object, a call left in its text), the round is asked again with the reply constrained by a
JSON schema to a valid call or an answer (see `constrained`), capped in tokens and read only as long
as it can still be valid.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator, Collection
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from studio.agent.budget import fit_history
from studio.agent.constrained import (
    FORCED_MAX_TOKENS,
    as_plain_messages,
    format_hint,
    read_reply,
    reply_schema,
)
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
from studio.agent.guided import ANSWER_MAX_TOKENS, NO_SKILL, Guide, cut_answer, looped_answer
from studio.agent.guided_answer import repeats_denial
from studio.agent.guided_fill import FILL_MODEL
from studio.agent.guided_mode import CLI_HINT, GuidedMode, auto_guided, model_parameters
from studio.agent.tools import ACTIVATE, TOOL_NAMES
from studio.llm.client import ChatClient
from studio.llm.errors import BadURL, HTTPError, LLMError, ServerNotRunning, Timeout
from studio.llm.jsonprefix import object_prefix
from studio.llm.textcalls import extract_tool_calls
from studio.llm.types import (
    Message,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolCall,
    ToolCallChunk,
    ToolSpec,
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
    # Carry a small model through a skill one constrained step at a time (see `guided`): True or
    # "on", False or "off", or "auto": when the server says the model is small (`guided_mode`).
    guided: bool | GuidedMode = False
    # How the user changes `guided`, said in the notice that "auto" chose it (the CLI's option
    # or the window's setting).
    guided_hint: str = CLI_HINT
    # Guided, whether the model fills a run's arguments under a schema built from the skill
    # (`guided_fill`), or picks among commands put together from the user's words; None: when
    # the server says the model has `FILL_MODEL` parameters or more.
    guided_fill: bool | None = None


class CallRunner(Protocol):
    """Carries out a tool call in place of the executor: `studio.agent.fork.SkillModes` runs a
    skill the way its frontmatter says (another model, a fork)."""

    def execute(
        self, agent: Agent, call: ToolCall, messages: list[Message]
    ) -> AsyncIterator[Event]: ...


def _call_key(call: ToolCall) -> str:
    return call.name + "\x00" + json.dumps(call.arguments, sort_keys=True, default=str)


@dataclass(slots=True)
class _Reply:
    """What one request to the model gave: its text, thinking and calls, and, for a constrained
    reply, how its JSON ended ("complete", "invalid", "partial": cut short, or "looped": a guided
    answer stopped where it started to repeat itself)."""

    text: str = ""
    thinking: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    shape: str = "partial"
    kept: str | None = None  # a guided answer cut where it started to loop ("looped")


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
            yield Notice(why)
        if info.supports_tools is False:
            self._native_tools = False
            if self.executor.toolbox.names:
                yield Notice(
                    f"{self.config.model} has no tool calling of its own; its replies are "
                    "constrained to a tool call or an answer so that it can still use skills."
                )
        if self.config.think and info.supports_thinking is False:
            self._offer_thinking = False
            yield Notice(f"{self.config.model} does not support thinking; it is switched off.")

    def _tools(self) -> list[ToolSpec]:
        """The tools this turn offers: natively, or as the choices of a constrained reply."""
        if self._native_tools:
            return self.executor.toolbox.specs(offered=self.offered)
        if self._can_constrain and self.executor.toolbox.names:
            return self.executor.toolbox.specs(offered=self.offered)
        return []

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
            guided = self._guided and bool(tools) and self._can_constrain
            constrained = bool(tools) and self._can_constrain and (
                guided or bool(retry) or not self._native_tools)
            choice = self.config.tool_choice if tools and round_number == 1 and not guided else None
            forced = choice not in (None, "auto", "none")
            sent: list[Message] = messages
            if self.context_length:
                trim = fit_history(messages, tools, self.context_length)
                sent = trim.messages
                if trim.dropped_turns and not trimmed:
                    trimmed = True
                    turns = "turn was" if trim.dropped_turns == 1 else f"{trim.dropped_turns} turns were"
                    yield Notice(
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
            options = dict(self.config.options)
            step = self._guide.step(sent, self.offered, ANSWER_MAX_TOKENS) if guided else None
            if constrained or forced:
                caps = [options.pop(key) for key in ("max_tokens", "num_predict")
                        if isinstance(options.get(key), int)]
                options["max_tokens"] = min([*caps, step.max_tokens if step else FORCED_MAX_TOKENS])
                # A held reply is a choice among few valid ones: sampling only adds ways to pick
                # a worse one. A temperature the user set still wins.
                options.setdefault("temperature", 0)
            asked = model
            if step is not None:
                schema = step.schema
                request = self._guide.request(sent, self.offered)
                stream = self.client.chat(model, request, think=False, options=options,
                                          schema=schema)
            elif constrained:
                schema = reply_schema(tools, require_call=forced)
                hint = format_hint(tools, require_call=forced)
                request = sent if self._native_tools else as_plain_messages(sent)
                if request and request[0].role == "system":
                    request = [Message("system", request[0].content + hint), *request[1:]]
                stream = self.client.chat(model, request, think=self._offer_thinking,
                                          options=options or None, schema=schema)
            else:
                stream = self.client.chat(model, sent, tools=tools or None, think=self._offer_thinking,
                                          tool_choice=choice, options=options or None)
            reply = _Reply()
            try:
                async for event in self._read(stream, reply, constrained, step is not None):
                    yield event
            except HTTPError as exc:
                if not constrained:
                    yield Error(exc.user_message)
                    yield Done("error", answer, round_number, model=asked)
                    return
                self._can_constrain = False
                yield Notice(f"the server refused a constrained reply ({exc.user_message}); going on without")
                continue
            except LLMError as exc:
                yield Error(exc.user_message)
                yield Done("error", answer, round_number, model=asked)
                return
            usage = _added(usage, reply.usage)
            text, calls = reply.text, reply.calls
            if constrained:
                parsed = read_reply(text) if reply.shape == "complete" else None
                if reply.shape == "looped":
                    parsed = reply.kept
                    yield Notice("the model's answer started repeating itself; it was stopped there")
                if parsed is None and reply.shape == "partial" and step is not None:
                    parsed = cut_answer(text)
                    if parsed is not None:
                        yield Notice(f"the model's answer was cut at {options['max_tokens']} tokens")
                if parsed is None and reply.shape == "invalid" and not text.lstrip().startswith("{"):
                    # The server ignored the schema: the model wrote prose. Ask again without it.
                    self._can_constrain = False
                    yield Notice("the server did not hold the model to the reply's schema; going on "
                                 "without it")
                    continue
                if parsed is None:
                    how = "was cut short" if reply.shape == "partial" else "stopped being valid JSON"
                    yield Error(
                        f"The model's reply {how} even when constrained to a tool call or an answer "
                        f"({len(text):,} characters, at most {options['max_tokens']} tokens). Ask again, or "
                        "pick a larger model.",
                        cause="model",
                    )
                    yield Done("error", answer, round_number, usage, model=asked)
                    return
                reason = self._guide.denial(sent) if step is not None else None
                if isinstance(parsed, str) and reason and repeats_denial(parsed, reason):
                    yield Notice("the model's reply only said your reason for the denial back, so "
                                 "it is not shown as an answer. Ask again in other words, or allow "
                                 "the run.")
                    yield Done("answered", "", round_number, usage, model=asked)
                    return
                if isinstance(parsed, str):
                    text, calls = parsed, []
                    yield TextDelta(parsed)
                elif step is not None and parsed.name == ACTIVATE and \
                        parsed.arguments.get("name") == NO_SKILL:
                    self._guide.declined(sent)
                    continue
                else:
                    text, calls = "", [self._guide.resolve(parsed)]
            else:
                if not calls and tools:
                    calls, text = extract_tool_calls(text, self.executor.toolbox_tool_names)
                calls = [self.executor.toolbox.repair_call(call) for call in calls]
                toolbox = self.executor.toolbox
                failure = _failure(calls, text, toolbox.tool_names, toolbox.names) if tools else None
                if failure and self._can_constrain and not retry:
                    retry = failure
                    yield Notice(
                        f"the model's tool call was not valid ({failure}); asking again with its reply "
                        "constrained to a valid call or an answer",
                        invalid_call=(calls[0].name, _skill_of(calls[0])) if calls else None,
                    )
                    continue
            retry = ""
            messages.append(
                Message("assistant", text, tool_calls=list(calls), thinking=reply.thinking or None)
            )
            answer = text
            if not calls:
                yield Done("answered", answer, round_number, usage, model=asked)
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
                    yield Done("repeated-call", answer, round_number, usage, model=asked)
                    return
                yield ToolCallRequested(
                    call.id, call.name, dict(call.arguments),
                    _skill_of(call), self.executor.describe(call), constrained,
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
        yield Done("round-limit", answer, self.config.max_rounds, usage, model=asked)

    async def _read(self, stream: AsyncIterator[StreamEvent], reply: _Reply,
                    constrained: bool, guided: bool) -> AsyncIterator[Event]:
        """Stream one reply into `reply`. A constrained reply is JSON, not shown as it comes; it
        is read only until it is a whole object or can no longer become one (the stream is
        closed there rather than left to run to the token cap), or, guided, until its answer
        starts to loop."""
        text: list[str] = []
        thinking: list[str] = []
        events = cast(AsyncGenerator[StreamEvent, None], stream)
        async with contextlib.aclosing(events):
            async for chunk in events:
                if isinstance(chunk, TextChunk):
                    text.append(chunk.text)
                    if not constrained:
                        yield TextDelta(chunk.text)
                        continue
                    state = object_prefix("".join(text))
                    if state.status != "partial":
                        reply.shape = state.status
                        break
                    if guided and (kept := looped_answer("".join(text))) is not None:
                        reply.shape, reply.kept = "looped", kept
                        break
                elif isinstance(chunk, ThinkingChunk):
                    thinking.append(chunk.text)
                    yield ThinkingDelta(chunk.text)
                elif isinstance(chunk, ToolCallChunk):
                    reply.calls.append(chunk.call)
                elif isinstance(chunk, StreamEnd):
                    reply.usage = dict(chunk.usage or {})
        reply.text, reply.thinking = "".join(text), "".join(thinking)


def _failure(calls: list[ToolCall], text: str, tools: Collection[str],
             skills: Collection[str]) -> str | None:
    """Why the model's own calls cannot be run as they are, or None. Only the skill tools
    (`TOOL_NAMES`) must name a skill there is; the others (search, drafts) take other arguments."""
    for call in calls:
        if call.name not in tools:
            return f"there is no tool {call.name!r}"
        if call.invalid_arguments is not None:
            return f"the arguments of {call.name} are not a JSON object"
        if call.name not in TOOL_NAMES:
            continue
        skill = _skill_of(call)
        if skill not in skills:
            return f"{call.name} names no skill there is" if skill is None else f"there is no skill {skill!r}"
    if not calls and any(name in text for name in tools):
        return "it wrote a call in its text that could not be read"
    return None


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


def _skill_of(call: ToolCall) -> str | None:
    value = call.arguments.get("name") if call.name == "activate_skill" else call.arguments.get("skill")
    return value if isinstance(value, str) else None

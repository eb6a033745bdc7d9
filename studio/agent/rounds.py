"""The ways a round asks the model for its next reply, one class each, so that each can be tried on
its own against a scripted server; `Agent.run` picks one per round and does the rest (fitting
the context, the repeat guard, running the calls).

- `NativeRound`: the model's own tool calling, or none; a call it wrote in its text is read from
  there, and a call that cannot be run asks for the round again, constrained.
- `ConstrainedRound`: the reply held by a JSON schema to a valid call or an answer (see
  `constrained`), for a model without tool calling or after its own call failed.
- `GuidedRound`: a small model carried through a skill one constrained step at a time (see
  `guided`).

A held reply is JSON, not shown as it comes, and read only as long as it can still be valid.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from studio.agent.constrained import (
    FORCED_MAX_TOKENS,
    as_plain_messages,
    format_hint,
    read_reply,
    reply_schema,
)
from studio.agent.events import ChatNotice, Error, Event, TextDelta, ThinkingDelta
from studio.agent.guided.answer import repeats_denial
from studio.agent.guided.replies import ANSWER_MAX_TOKENS, NO_SKILL, Guide, cut_answer, looped_answer
from studio.agent.toolbook import ACTIVATE, TOOL_NAMES
from studio.agent.tools import SkillToolbox
from studio.llm import (
    ChatClient,
    HTTPError,
    Message,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolCall,
    ToolCallChunk,
    ToolSpec,
    extract_tool_calls,
    object_prefix,
)

Kind = Literal["reply", "again", "unheld", "retry", "failed"]


@dataclass(frozen=True, slots=True)
class Ask:
    """What every round sends, whatever its way: the model, the conversation as fitted to its
    context, the user's options (a held round caps their tokens) and whether to offer thinking."""

    model: str
    messages: list[Message]
    options: dict[str, Any] = field(default_factory=dict)
    think: bool = False


@dataclass(slots=True)
class Outcome:
    """What a round came to.

    Attributes:
        kind: "reply": `text` and `calls` are the model's reply; "again": ask the next round as it
            is (a guided model picked no skill); "unheld": the server does not hold replies to a
            schema, go on without; "retry": the model's own call failed (`why`), ask again
            constrained; "failed": the round told the user why with an `Error`, the turn ends.
        usage: the reply's token counts, as the server gave them.
        unverified: why a guided answer is not backed by a script's output ("" when it is).
    """

    kind: Kind = "reply"
    text: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    thinking: str = ""
    usage: dict[str, Any] = field(default_factory=dict)
    why: str = ""
    unverified: str = ""


class Round(Protocol):
    """One request to the model and what its reply means.

    Attributes:
        held: its reply is held by a JSON schema (the calls' cards say so).
    """

    held: bool

    def play(self, client: ChatClient, ask: Ask, outcome: Outcome) -> AsyncIterator[Event]:
        """Ask the model once and settle `outcome`, yielding what the user sees meanwhile. A
        server that fails raises `LLMError`."""
        ...


@dataclass(slots=True)
class _Reply:
    """What one request to the model gave: its text, thinking and calls, and, for a held reply,
    how its JSON ended ("complete", "invalid", "partial": cut short, or "looped": a guided
    answer stopped where it started to repeat itself)."""

    text: str = ""
    thinking: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    shape: str = "partial"
    kept: str | None = None  # a guided answer cut where it started to loop ("looped")


@dataclass(slots=True)
class NativeRound:
    """The model's own tool calling (`tools` offered natively; none when empty).

    Attributes:
        tool_choice: the server's `tool_choice`; one that forces a call caps the reply's tokens.
        call_names: the names taken for calls written in the model's text.
        may_retry: a call that cannot be run makes the round "retry" (else it is run and fails).
    """

    tools: list[ToolSpec]
    toolbox: SkillToolbox
    call_names: Sequence[str]
    tool_choice: str | None = None
    may_retry: bool = True
    held: bool = False

    async def play(self, client: ChatClient, ask: Ask, outcome: Outcome) -> AsyncIterator[Event]:
        forced = self.tool_choice not in (None, "auto", "none")
        options = _held_options(ask.options, FORCED_MAX_TOKENS) if forced else dict(ask.options)
        stream = client.chat(ask.model, ask.messages, tools=self.tools or None, think=ask.think,
                             tool_choice=self.tool_choice, options=options or None)
        reply = _Reply()
        async for event in _stream(stream, reply, held=False, guided=False):
            yield event
        outcome.usage, outcome.thinking = reply.usage, reply.thinking
        text, calls = reply.text, reply.calls
        if not calls and self.tools:
            calls, text = extract_tool_calls(text, self.call_names)
        calls = [self.toolbox.repair_call(call) for call in calls]
        failure = (_failure(calls, text, self.toolbox.tool_names, self.toolbox.names)
                   if self.tools else None)
        if failure and self.may_retry:
            outcome.kind, outcome.why = "retry", failure
            yield ChatNotice(
                f"the model's tool call was not valid ({failure}); asking again with its reply "
                "constrained to a valid call or an answer",
                invalid_call=(calls[0].name, skill_of(calls[0])) if calls else None,
            )
            return
        outcome.text, outcome.calls = text, calls


@dataclass(slots=True)
class ConstrainedRound:
    """The reply held by a JSON schema to a call of one of `tools` or, unless `require_call`, an
    answer; the format told in the system prompt.

    Attributes:
        plain: the model's chat template knows no tools: earlier calls and results are written
            as plain messages.
    """

    tools: list[ToolSpec]
    require_call: bool = False
    plain: bool = False
    held: bool = True

    async def play(self, client: ChatClient, ask: Ask, outcome: Outcome) -> AsyncIterator[Event]:
        options = _held_options(ask.options, FORCED_MAX_TOKENS)
        schema = reply_schema(self.tools, require_call=self.require_call)
        hint = format_hint(self.tools, require_call=self.require_call)
        request = as_plain_messages(ask.messages) if self.plain else ask.messages
        if request and request[0].role == "system":
            request = [Message("system", request[0].content + hint), *request[1:]]
        stream = client.chat(ask.model, request, think=ask.think, options=options or None,
                             schema=schema)
        reply = _Reply()
        try:
            async for event in _stream(stream, reply, held=True, guided=False):
                yield event
        except HTTPError as exc:
            outcome.kind = "unheld"
            yield ChatNotice(f"the server refused a constrained reply ({exc.user_message}); going on without")
            return
        parsed = read_reply(reply.text) if reply.shape == "complete" else None
        async for event in _settle(reply, parsed, options["max_tokens"], outcome):
            yield event


@dataclass(slots=True)
class GuidedRound:
    """One guided step: the reply held to the one step that makes sense next (`Guide.step`), asked
    with the guide's short request.

    Attributes:
        offered: the skills the tools name, None for all.
    """

    guide: Guide
    offered: Collection[str] | None = None
    held: bool = True

    async def play(self, client: ChatClient, ask: Ask, outcome: Outcome) -> AsyncIterator[Event]:
        sent = ask.messages
        # A run the model wrote whole is checked before it runs; one the checker rejects is asked
        # for again, the model shown what was wrong, and if that is rejected too, filled from the
        # skill's usage (`Guide.check`): a request more each time, no run.
        for _attempt in range(3):
            step = self.guide.step(sent, self.offered, ANSWER_MAX_TOKENS)
            options = _held_options(ask.options, step.max_tokens)
            request = self.guide.request(sent, self.offered)
            stream = client.chat(ask.model, request, think=False, options=options, schema=step.schema)
            reply = _Reply()
            try:
                async for event in _stream(stream, reply, held=True, guided=True):
                    yield event
            except HTTPError as exc:
                outcome.kind = "unheld"
                yield ChatNotice(f"the server refused a constrained reply ({exc.user_message}); "
                                 "going on without")
                return
            text = reply.text
            parsed = read_reply(text) if reply.shape == "complete" else None
            if reply.shape == "looped":
                parsed = reply.kept
                yield ChatNotice("the model's answer started repeating itself; it was stopped there")
            if parsed is None and reply.shape == "partial":
                parsed = cut_answer(text)
                if parsed is not None:
                    yield ChatNotice(f"the model's answer was cut at {options['max_tokens']} tokens")
            if parsed is None and reply.shape == "partial" and self.guide.abandon(sent):
                yield ChatNotice(f"the model's command ran past {options['max_tokens']} tokens; "
                                 "it is filled from the skill's usage instead")
                continue
            if isinstance(parsed, ToolCall) and parsed.name == ACTIVATE and \
                    parsed.arguments.get("name") == NO_SKILL:
                outcome.usage = reply.usage
                outcome.kind = "again"
                self.guide.declined(sent)
                return
            reason = self.guide.denial(sent)
            if isinstance(parsed, str) and reason and repeats_denial(parsed, reason):
                outcome.usage, outcome.text = reply.usage, ""
                yield ChatNotice("the model's reply only said your reason for the denial back, so it is not "
                             "shown as an answer. Ask again in other words, or allow the run.")
                return
            if isinstance(parsed, ToolCall):
                parsed = self.guide.resolve(parsed)
                checked = self.guide.check(sent, parsed)
                if checked.problem:
                    then = "the model is asked again with what was wrong" if checked.again else \
                        "it is filled from the skill's usage instead"
                    yield ChatNotice(f"the model's command `{parsed.arguments.get('command')}` was not run "
                                     f"({checked.problem}); {then}")
                    continue
                if checked.note:
                    yield ChatNotice(checked.note)
                parsed = checked.call
                said = self.guide.repeated(sent, parsed)
                if said is not None:
                    yield ChatNotice("the model asked to run the command that just failed again; "
                                     "it was not run, as it would fail the same way")
                    parsed = said
            else:
                outcome.unverified = self.guide.unverified(sent)
            async for event in _settle(reply, parsed, options["max_tokens"], outcome):
                yield event
            return


async def _settle(reply: _Reply, parsed: ToolCall | str | None, cap: int,
                  outcome: Outcome) -> AsyncIterator[Event]:
    """Settle `outcome` from a held reply and what was read from it (`parsed`, None if nothing)."""
    outcome.usage, outcome.thinking = reply.usage, reply.thinking
    text = reply.text
    if parsed is None and reply.shape == "invalid" and not text.lstrip().startswith("{"):
        # The server ignored the schema: the model wrote prose. Ask again without it.
        outcome.kind = "unheld"
        yield ChatNotice("the server did not hold the model to the reply's schema; going on without it")
        return
    if parsed is None:
        how = "was cut short" if reply.shape == "partial" else "stopped being valid JSON"
        outcome.kind = "failed"
        yield Error(
            f"The model's reply {how} even when constrained to a tool call or an answer "
            f"({len(text):,} characters, at most {cap} tokens). Ask again, or pick a larger model.",
            cause="model",
        )
        return
    if isinstance(parsed, str):
        outcome.text, outcome.calls = parsed, []
        yield TextDelta(parsed)
    else:
        outcome.text, outcome.calls = "", [parsed]


def _held_options(options: dict[str, Any], cap: int) -> dict[str, Any]:
    """`options` for a held or forced reply: its tokens capped at `cap` or the user's own lower
    cap, and no sampling unless the user set a temperature."""
    held = dict(options)
    caps = [held.pop(key) for key in ("max_tokens", "num_predict") if isinstance(held.get(key), int)]
    held["max_tokens"] = min([*caps, cap])
    # A held reply is a choice among few valid ones: sampling only adds ways to pick a worse one.
    held.setdefault("temperature", 0)
    return held


async def _stream(stream: AsyncIterator[StreamEvent], reply: _Reply, *, held: bool,
                  guided: bool) -> AsyncIterator[Event]:
    """Stream one reply into `reply`. A held reply is JSON, not shown as it comes; it is read only
    until it is a whole object or can no longer become one (the stream is closed there rather
    than left to run to the token cap), or, guided, until its answer starts to loop."""
    text: list[str] = []
    thinking: list[str] = []
    events = cast(AsyncGenerator[StreamEvent, None], stream)
    async with contextlib.aclosing(events):
        async for chunk in events:
            if isinstance(chunk, TextChunk):
                text.append(chunk.text)
                if not held:
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
        skill = skill_of(call)
        if skill not in skills:
            return f"{call.name} names no skill there is" if skill is None else f"there is no skill {skill!r}"
    if not calls and any(name in text for name in tools):
        return "it wrote a call in its text that could not be read"
    return None


def skill_of(call: ToolCall) -> str | None:
    """The skill a call names (`activate_skill`'s `name`, the other tools' `skill`), or None."""
    value = call.arguments.get("name") if call.name == ACTIVATE else call.arguments.get("skill")
    return value if isinstance(value, str) else None

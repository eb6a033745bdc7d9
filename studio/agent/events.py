"""The typed events the agent loop yields; the chat pane and `studio chat` render the same ones."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import PurePath
from typing import Any, Literal

ToolStatus = Literal["ok", "failed", "blocked", "denied", "error", "timeout", "cancelled"]


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str
    kind: Literal["text"] = "text"


@dataclass(frozen=True, slots=True)
class ThinkingDelta:
    text: str
    kind: Literal["thinking"] = "thinking"


@dataclass(frozen=True, slots=True)
class ChatNotice:
    """Something the user should know that is not an error (skills left out, tools unsupported).

    `invalid_call` is set on the notice that a call of the model's could not be run as it was
    written: the tool it named and the skill it named (None: none), so that a measure of the
    model's first choice (a trigger eval) sees that choice even when a retry follows."""

    message: str
    invalid_call: tuple[str, str | None] | None = None
    kind: Literal["notice"] = "notice"


@dataclass(frozen=True, slots=True)
class ToolCallRequested:
    call_id: str
    tool: str
    arguments: dict[str, Any]
    skill: str | None
    summary: str
    # The model's reply was held to a valid call by a JSON schema (its own tool calling is
    # missing or failed).
    constrained: bool = False
    kind: Literal["tool_call"] = "tool_call"


@dataclass(frozen=True, slots=True)
class ApprovalNeeded:
    call_id: str
    command: str
    skill: str
    cwd: str
    reasons: tuple[str, ...]
    warnings: tuple[str, ...]
    unsandboxed: str = ""
    kind: Literal["approval_needed"] = "approval_needed"


@dataclass(frozen=True, slots=True)
class ApprovalGiven:
    call_id: str
    choice: str
    by: str
    reason: str | None = None
    scope: str | None = None
    kind: Literal["approval"] = "approval"


@dataclass(frozen=True, slots=True)
class ToolStarted:
    call_id: str
    tool: str
    skill: str | None
    cwd: str | None
    command: str | None
    sandbox: str | None = None
    kind: Literal["tool_started"] = "tool_started"


@dataclass(frozen=True, slots=True)
class ToolOutput:
    call_id: str
    text: str
    kind: Literal["tool_output"] = "tool_output"


@dataclass(frozen=True, slots=True)
class ToolFinished:
    call_id: str
    tool: str
    status: ToolStatus
    result: str
    exit_code: int | None = None
    duration: float | None = None
    truncated: bool = False
    kind: Literal["tool_finished"] = "tool_finished"


@dataclass(frozen=True, slots=True)
class HeldWrite:
    """A file or folder a run wrote that another tool would run later (`studio.agent.held`):
    moved to the holding folder instead of landing. `kind` is "created" or "changed"."""

    path: str
    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class ToolWrites:
    """What a command wrote in the folders it could write, found by comparing them before and
    after the run; it comes before the call's `ToolFinished`.

    Attributes:
        root: the folder the paths are relative to (the workspace); a path outside it is absolute.
        created, changed, deleted: what landed; a new folder is one path ending in "/".
        held: what did not land: it waits in the hold `hold_id` for Keep or Discard.
        complete: False when the folders held more names than the studio compares
            (`studio.agent.writes.MAX_ENTRIES`) or one could not be read: what the run wrote
            past them is unknown.
        omitted: paths left out of the lists above to keep them short.
        problems: held files that could not be held, each a sentence.
    """

    call_id: str
    root: str
    created: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    held: tuple[HeldWrite, ...] = ()
    hold_id: str | None = None
    complete: bool = True
    omitted: int = 0
    problems: tuple[str, ...] = ()
    kind: Literal["tool_writes"] = "tool_writes"

    @property
    def wrote(self) -> bool:
        return bool(self.created or self.changed or self.deleted or self.held or self.problems
                    or self.omitted)


@dataclass(frozen=True, slots=True)
class Error:
    """A turn that cannot go on. `cause` says whose failure it is: "server" (unreachable, an HTTP
    error, a stream cut off: nothing is learnt of the model), "model" (its reply could not be
    used even constrained: a result about the model), or "request" (the turn does not fit)."""

    message: str
    cause: Literal["server", "model", "request"] = "server"
    kind: Literal["error"] = "error"


_ENDINGS = {"answered": "Done", "round-limit": "Stopped at the round limit",
            "repeated-call": "Stopped: the same call again", "cancelled": "Cancelled",
            "error": "Ended with an error", "answer-limit": "Stopped at the answer's limit"}


@dataclass(frozen=True, slots=True)
class Done:
    """The end of a turn. `rounds` counts the requests to the model; `model` is the model of the
    last one ("" when none was made), which a skill's `model:` may have switched mid-turn.
    `unverified` says why a guided answer is not backed by a script's output (given after a
    denial, or with no output at all); "" when it is, or when the turn was not guided."""

    reason: Literal["answered", "round-limit", "repeated-call", "cancelled", "error",
                    "answer-limit"]
    text: str = ""
    rounds: int = 0
    usage: dict[str, Any] = field(default_factory=dict)
    model: str = ""
    unverified: str = ""
    kind: Literal["done"] = "done"

    def summary(self) -> str:
        """How the turn ended, for a person: "Done · qwen3:0.6b · 3 rounds"."""
        parts = [_ENDINGS[self.reason]]
        if self.model:
            # The embedded engine's model is a file: its name says which, its folder only adds
            # a line of site-packages to every answer.
            gguf = self.model.lower().endswith(".gguf")
            parts.append(PurePath(self.model).name if gguf else self.model)
        if self.rounds:
            parts.append(f"{self.rounds} round{'s' if self.rounds != 1 else ''}")
        return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class ForkStarted:
    """The call `call_id` started a fork: a sub-agent running the skill `skill` (`context` is
    "fork" or "fork_with_context") on `model`, as the saved agent `agent` when the skill names
    one. The fork's own events follow, each wrapped in `Nested` with this `call_id`."""

    call_id: str
    skill: str
    context: str
    model: str
    agent: str | None = None
    kind: Literal["fork_started"] = "fork_started"


@dataclass(frozen=True, slots=True)
class Nested:
    """An event of a fork: a sub-agent running a `context: fork` skill inside the parent's
    `activate_skill` call `call_id`. `depth` is 1 for a fork of the chat, 2 for a fork of that
    fork; a fork's own forks arrive wrapped once more."""

    call_id: str
    depth: int
    event: Event
    kind: Literal["nested"] = "nested"


Event = (
    TextDelta | ThinkingDelta | ChatNotice | ToolCallRequested | ApprovalNeeded | ApprovalGiven
    | ToolStarted | ToolOutput | ToolWrites | ToolFinished | Error | Done | ForkStarted | Nested
)


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict with its `kind` first (one line of `studio chat --json`)."""
    data = asdict(event)
    kind = data.pop("kind")
    return {"kind": kind, **data}

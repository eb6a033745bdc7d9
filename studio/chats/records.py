"""The record of a tool call as its card shows it and the chat keeps it: plain data with its JSON
shape, and the sub-conversation of a fork nested in it.

Below both the store (which saves them) and the agent (`studio.agent.records`, which fills them in
from a turn's events): the store knows no agent internals, and the agent depends on the chats
package, never the reverse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(slots=True)
class ToolRecord:
    """A tool call as its card shows it, and what went back to the model.

    Attributes:
        status: "requested", "asking", "running", or a `ToolFinished` status (ok, failed,
            blocked, denied, error, timeout, cancelled).
        approval: choice ("once", "always", "deny", "allow"), by ("user", "policy"...), reason
            and scope, once someone or something decided.
        output: what the command printed, as it streamed (empty for the skill tools).
        result: the text the model was given.
        sandbox: what the sandbox let the command do, or that there was none.
        fork: the sub-conversation, when the call started a fork (a `context: fork` skill).
        writes: what the command wrote, held back included (None: nothing, or not a command).
    """

    call_id: str
    tool: str
    skill: str | None = None
    summary: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    command: str | None = None
    cwd: str | None = None
    status: str = "requested"
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    approval: dict[str, str | None] | None = None
    output: str = ""
    result: str = ""
    exit_code: int | None = None
    duration: float | None = None
    truncated: bool = False
    sandbox: str | None = None
    fork: ForkRecord | None = None
    writes: WritesRecord | None = None

    @property
    def finished(self) -> bool:
        return self.status not in ("requested", "asking", "running")

    def to_json(self) -> dict[str, Any]:
        return {
            "call_id": self.call_id, "tool": self.tool, "skill": self.skill,
            "summary": self.summary, "arguments": self.arguments, "command": self.command,
            "cwd": self.cwd, "status": self.status, "reasons": list(self.reasons),
            "warnings": list(self.warnings), "approval": self.approval, "output": self.output,
            "result": self.result, "exit_code": self.exit_code, "duration": self.duration,
            "truncated": self.truncated, "sandbox": self.sandbox,
            "fork": self.fork.to_json() if self.fork is not None else None,
            "writes": self.writes.to_json() if self.writes is not None else None,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: object, depth: int = 0) -> ToolRecord | None:
        """The record a stored object holds; None when it is not one (a damaged row). `depth`
        counts the forks it is nested in; deeper than forks can go, it is damage too."""
        if not isinstance(data, dict) or depth > MAX_FORK_DEPTH:
            return None
        call_id, tool = data.get("call_id"), data.get("tool")
        if not isinstance(call_id, str) or not isinstance(tool, str):
            return None
        approval = data.get("approval")
        exit_code = data.get("exit_code")
        duration = data.get("duration")
        arguments = data.get("arguments")
        return cls(
            call_id,
            tool,
            _text_or_none(data.get("skill")),
            _text(data.get("summary")),
            dict(arguments) if isinstance(arguments, dict) else {},
            _text_or_none(data.get("command")),
            _text_or_none(data.get("cwd")),
            _text(data.get("status")) or "error",
            _texts(data.get("reasons")),
            _texts(data.get("warnings")),
            {str(k): _text_or_none(v) for k, v in approval.items()} if isinstance(approval, dict) else None,
            _text(data.get("output")),
            _text(data.get("result")),
            exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None,
            float(duration) if isinstance(duration, int | float) and not isinstance(duration, bool) else None,
            data.get("truncated") is True,
            _text_or_none(data.get("sandbox")),
            ForkRecord.from_json(data.get("fork"), depth + 1),
            WritesRecord.from_json(data.get("writes")),
        )


@dataclass(slots=True)
class HeldFileRecord:
    """A file or folder a run wrote and the studio held back: where, "created" or "changed",
    and what would run it."""

    path: str
    kind: str
    reason: str


@dataclass(slots=True)
class WritesRecord:
    """What a command wrote, as its card shows it (`studio.agent.events.ToolWrites`).

    Attributes:
        root: the folder the paths are relative to.
        held: what waits in the hold `hold_id` for Keep or Discard.
        decision: "kept" or "discarded" once the user chose (None: still waiting).
        problems: what could not be held or kept, and when the lists are incomplete.
    """

    root: str
    created: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    held: tuple[HeldFileRecord, ...] = ()
    hold_id: str | None = None
    complete: bool = True
    omitted: int = 0
    problems: tuple[str, ...] = ()
    decision: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root, "created": list(self.created), "changed": list(self.changed),
            "deleted": list(self.deleted),
            "held": [{"path": h.path, "kind": h.kind, "reason": h.reason} for h in self.held],
            "hold_id": self.hold_id, "complete": self.complete, "omitted": self.omitted,
            "problems": list(self.problems), "decision": self.decision,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> WritesRecord | None:
        if not isinstance(data, dict) or not isinstance(data.get("root"), str):
            return None
        held = data.get("held")
        omitted = data.get("omitted")
        return cls(
            data["root"], _texts(data.get("created")), _texts(data.get("changed")),
            _texts(data.get("deleted")),
            tuple(HeldFileRecord(_text(h.get("path")), _text(h.get("kind")), _text(h.get("reason")))
                  for h in (held if isinstance(held, list) else []) if isinstance(h, dict)),
            _text_or_none(data.get("hold_id")), data.get("complete") is not False,
            omitted if isinstance(omitted, int) and not isinstance(omitted, bool) else 0,
            _texts(data.get("problems")), _text_or_none(data.get("decision")),
        )


# Far deeper than the agent lets forks nest (`studio.agent.fork.FORK_DEPTH_LIMIT`).
MAX_FORK_DEPTH = 16
ForkNoteKind = Literal["text", "notice", "error"]


@dataclass(slots=True)
class ForkNote:
    """A part of a fork's sub-conversation that is not a tool call: text of its answer, a notice
    or an error."""

    kind: ForkNoteKind
    text: str


@dataclass(slots=True)
class ForkRecord:
    """The sub-conversation of a fork, as its nested card shows it.

    Attributes:
        skill, context, model, agent: the skill that forked, its `context`, the model the fork
            ran on and the saved agent it ran as (None: none).
        items: what the fork said and did, in order; a `ToolRecord`'s own `fork` holds a fork of
            this fork.
        status: "running" until the fork ends, then how it ended ("answered", "error",
            "cancelled", ...).
    """

    skill: str
    context: str
    model: str
    agent: str | None = None
    items: list[ForkNote | ToolRecord] = field(default_factory=list)
    status: str = "running"

    @property
    def tool_runs(self) -> int:
        return sum(isinstance(item, ToolRecord) for item in self.items)

    def call(self, call_id: str) -> ToolRecord | None:
        """The fork's tool call `call_id` (the latest, should a model reuse an id)."""
        return next((item for item in reversed(self.items)
                     if isinstance(item, ToolRecord) and item.call_id == call_id), None)

    def to_json(self) -> dict[str, Any]:
        items = [item.to_json() if isinstance(item, ToolRecord)
                 else {"kind": item.kind, "text": item.text} for item in self.items]
        return {"skill": self.skill, "context": self.context, "model": self.model,
                "agent": self.agent, "status": self.status, "items": items}

    @classmethod
    def from_json(cls, data: object, depth: int = 1) -> ForkRecord | None:
        if not isinstance(data, dict) or depth > MAX_FORK_DEPTH:
            return None
        items: list[ForkNote | ToolRecord] = []
        raw = data.get("items")
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, dict) and item.get("kind") in ("text", "notice", "error"):
                items.append(ForkNote(item["kind"], _text(item.get("text"))))
                continue
            record = ToolRecord.from_json(item, depth)
            if record is not None:
                items.append(record)
        return cls(_text(data.get("skill")), _text(data.get("context")), _text(data.get("model")),
                   _text_or_none(data.get("agent")), items, _text(data.get("status")) or "error")


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _texts(value: object) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list) else ()

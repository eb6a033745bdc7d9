"""How a turn's events become the records its tool cards show (`studio.chats.ToolRecord`),
forks included: the chat pane applies each event here and only redraws, so what a card says is
decided once, in the core, for every front end that shows cards.

A fork's events arrive wrapped in `Nested` under the call that started it; a fork of a fork is
wrapped once more, under its own call inside the first fork, and so on down.
"""

from __future__ import annotations

from studio.agent.events import (
    ApprovalGiven,
    ApprovalNeeded,
    ChatNotice,
    Done,
    Error,
    Event,
    ForkStarted,
    Nested,
    TextDelta,
    ToolCallRequested,
    ToolFinished,
    ToolOutput,
    ToolStarted,
    ToolWrites,
)
from studio.agent.toolbook import TOOL_BOOK
from studio.chats import (
    ForkNote,
    ForkNoteKind,
    ForkRecord,
    HeldFileRecord,
    ToolRecord,
    WritesRecord,
)


def record_for(event: ToolCallRequested) -> ToolRecord:
    """The record of a call the model just asked for."""
    summary = event.summary + (" (constrained)" if event.constrained else "")
    record = ToolRecord(event.call_id, event.tool, event.skill, summary, dict(event.arguments))
    command = event.arguments.get("command")
    entry = TOOL_BOOK.get(event.tool)
    if entry is not None and entry.runs and isinstance(command, str):
        record.command = command
    return record


def update_record(record: ToolRecord, event: Event) -> None:
    """Apply one event of `record`'s call: approval, start, output, end, the fork it started, or
    (`Nested`) an event of that fork. Events for nothing the record holds are ignored: a card
    never breaks a turn."""
    if isinstance(event, Nested):
        if record.fork is not None:
            _update_fork(record.fork, event.event)
    elif isinstance(event, ForkStarted):
        record.fork = ForkRecord(event.skill, event.context, event.model, event.agent)
    elif isinstance(event, ApprovalNeeded):
        record.status = "asking"
        record.cwd = event.cwd
        record.reasons = event.reasons
        record.warnings = event.warnings
    elif isinstance(event, ApprovalGiven):
        record.approval = {"choice": event.choice, "by": event.by, "reason": event.reason,
                           "scope": event.scope}
    elif isinstance(event, ToolStarted):
        record.status = "running"
        record.cwd = event.cwd or record.cwd
        record.command = event.command or record.command
        record.sandbox = event.sandbox
    elif isinstance(event, ToolOutput):
        record.output += event.text
    elif isinstance(event, ToolWrites):
        record.writes = WritesRecord(
            event.root, event.created, event.changed, event.deleted,
            tuple(HeldFileRecord(item.path, item.kind, item.reason) for item in event.held),
            event.hold_id, event.complete, event.omitted, event.problems)
    elif isinstance(event, ToolFinished):
        record.status = event.status
        record.result = event.result
        record.exit_code = event.exit_code
        record.duration = event.duration
        record.truncated = event.truncated


def _update_fork(fork: ForkRecord, event: Event) -> None:
    if isinstance(event, TextDelta):
        _add_note(fork, "text", event.text)
    elif isinstance(event, ChatNotice):
        _add_note(fork, "notice", event.message)
    elif isinstance(event, Error):
        _add_note(fork, "error", event.message)
    elif isinstance(event, Done):
        fork.status = event.reason
    elif isinstance(event, ToolCallRequested):
        fork.items.append(record_for(event))
    elif isinstance(event, Nested | ForkStarted | ApprovalNeeded | ApprovalGiven | ToolStarted
                    | ToolOutput | ToolWrites | ToolFinished):
        record = fork.call(event.call_id)
        if record is not None:
            update_record(record, event)


def _add_note(fork: ForkRecord, kind: ForkNoteKind, text: str) -> None:
    last = fork.items[-1] if fork.items else None
    if kind == "text" and isinstance(last, ForkNote) and last.kind == "text":
        last.text += text
    else:
        fork.items.append(ForkNote(kind, text))


def stop_record(record: ToolRecord, result: str) -> bool:
    """Mark what of `record` had not finished as stopped (the user stopped the chat), its fork's
    calls and forks too. Returns whether the record itself was still unfinished."""
    fork = record.fork
    if fork is not None:
        if fork.status == "running":
            fork.status = "cancelled"
        for item in fork.items:
            if isinstance(item, ToolRecord):
                stop_record(item, result)
    if record.finished:
        return False
    record.status = "cancelled"
    record.result = result
    return True

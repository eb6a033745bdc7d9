"""A tool call's record (`studio.chatstore.ToolRecord`, what its card shows) as the session's
events arrive: the chat pane and the transcript of an eval run follow the same events the same
way."""

from __future__ import annotations

from studio.agent.events import (
    ApprovalGiven,
    ApprovalNeeded,
    Event,
    ToolCallRequested,
    ToolFinished,
    ToolOutput,
    ToolStarted,
)
from studio.chatstore import ToolRecord


def new_record(event: ToolCallRequested) -> ToolRecord:
    """The record of a call the model just asked for."""
    summary = event.summary + (" (constrained)" if event.constrained else "")
    record = ToolRecord(event.call_id, event.tool, event.skill, summary, dict(event.arguments))
    command = event.arguments.get("command")
    if event.tool == "run_skill_script" and isinstance(command, str):
        record.command = command
    return record


def apply_event(record: ToolRecord, event: Event) -> None:
    """Update `record` with an event of its call (approval asked and given, start, output, end)."""
    if isinstance(event, ApprovalNeeded):
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
    elif isinstance(event, ToolFinished):
        record.status = event.status
        record.result = event.result
        record.exit_code = event.exit_code
        record.duration = event.duration
        record.truncated = event.truncated

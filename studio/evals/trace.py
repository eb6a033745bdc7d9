"""What one chat run did, gathered from the session's events: the answer, the skills it
activated, the files it read, the commands it ran and how they ended, and the transcript the
window shows with the chat's cards (messages in the chat store's shape)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.agent import (
    TOOL_BOOK,
    ChatNotice,
    Done,
    Error,
    Event,
    TextDelta,
    ToolCallRequested,
    ToolFinished,
    ToolStarted,
    record_for,
    update_record,
)
from studio.chats import StoredMessage, ToolRecord


@dataclass(slots=True)
class Trace:
    answer: str = ""
    rounds: int = 0
    outcome: str = ""
    activated: list[str] = field(default_factory=list)
    read: list[tuple[str, str]] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    exit_codes: list[int | None] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    transcript: list[dict[str, Any]] = field(default_factory=list)
    _requests: dict[str, ToolCallRequested] = field(default_factory=dict)
    _records: dict[str, ToolRecord] = field(default_factory=dict)

    def start(self, prompt: str) -> None:
        self.transcript.append({"role": "user", "content": prompt})

    def add(self, event: Event) -> None:
        self._follow(event)
        if isinstance(event, TextDelta):
            self.answer += event.text
        elif isinstance(event, ToolCallRequested):
            self._requests[event.call_id] = event
        elif isinstance(event, ToolStarted) and event.command is not None:
            self.ran.append(event.command)
        elif isinstance(event, ToolFinished):
            self._finished(event)
        elif isinstance(event, Error):
            self.errors.append(event.message)
        elif isinstance(event, Done):
            self.rounds, self.outcome = event.rounds, event.reason
            tokens = event.usage
            self.prompt_tokens = tokens.get("prompt_tokens", 0) if isinstance(
                tokens.get("prompt_tokens"), int) else 0
            self.completion_tokens = tokens.get("completion_tokens", 0) if isinstance(
                tokens.get("completion_tokens"), int) else 0
            # The streamed text is the answer; Done carries the same when nothing streamed.
            self.answer = self.answer or event.text

    def _follow(self, event: Event) -> None:
        """The transcript: answers as they stream, a card's record per call, notices, errors."""
        entries = self.transcript
        if isinstance(event, TextDelta):
            if not entries or entries[-1]["role"] != "assistant":
                entries.append({"role": "assistant", "content": ""})
            entries[-1]["content"] += event.text
        elif isinstance(event, ToolCallRequested):
            record = self._records[event.call_id] = record_for(event)
            entries.append({"role": "tool", "record": record})
        elif isinstance(event, ChatNotice | Error):
            entries.append({"role": "notice" if isinstance(event, ChatNotice) else "error",
                            "content": event.message})
        else:
            called = self._records.get(getattr(event, "call_id", ""))
            if called is not None:
                update_record(called, event)

    def _finished(self, event: ToolFinished) -> None:
        request = self._requests.get(event.call_id)
        if request is None:
            return
        entry = TOOL_BOOK.get(event.tool)
        if entry is None:
            return
        if entry.runs:
            self.exit_codes.append(event.exit_code)
        if event.status != "ok" or not request.skill:
            return
        if entry.trace == "activated":
            self.activated.append(request.skill)
        elif entry.trace == "read":
            self.read.append((request.skill, str(request.arguments.get("path", ""))))

    def to_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "rounds": self.rounds, "outcome": self.outcome,
                "activated": self.activated, "read": [path for _, path in self.read],
                "ran": self.ran, "exit_codes": self.exit_codes, "errors": self.errors,
                "transcript": [{**entry, "record": entry["record"].to_json()} if "record" in entry
                               else entry for entry in self.transcript]}


def transcript_messages(trace: dict[str, Any]) -> list[StoredMessage]:
    """The transcript of a run's trace (as cached, so maybe from an older studio or damaged) as
    chat messages the chat's transcript view shows."""
    found: list[StoredMessage] = []
    entries = trace.get("transcript")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        role, content = entry.get("role"), entry.get("content")
        text = content if isinstance(content, str) else ""
        if role == "tool":
            record = ToolRecord.from_json(entry.get("record"))
            if record is not None:
                found.append(StoredMessage("tool", record=record))
        elif role in ("user", "assistant", "notice", "error"):
            found.append(StoredMessage(role, text))
    return found

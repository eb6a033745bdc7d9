"""What one chat run did, gathered from the session's events: the answer, the skills it
activated, the files it read, the commands it ran and how they ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.agent.events import Done, Error, Event, TextDelta, ToolCallRequested, ToolFinished, ToolStarted


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
    _requests: dict[str, ToolCallRequested] = field(default_factory=dict)

    def add(self, event: Event) -> None:
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
            # The streamed text is the answer; Done carries the same when nothing streamed.
            self.answer = self.answer or event.text

    def _finished(self, event: ToolFinished) -> None:
        request = self._requests.get(event.call_id)
        if request is None:
            return
        if event.tool == "run_skill_script":
            self.exit_codes.append(event.exit_code)
        if event.status != "ok":
            return
        if event.tool == "activate_skill" and request.skill:
            self.activated.append(request.skill)
        elif event.tool == "read_skill_file" and request.skill:
            self.read.append((request.skill, str(request.arguments.get("path", ""))))

    def to_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "rounds": self.rounds, "outcome": self.outcome,
                "activated": self.activated, "read": [path for _, path in self.read],
                "ran": self.ran, "exit_codes": self.exit_codes, "errors": self.errors}

"""The audit lines of one tool call (a run or a draft): its decision, the approval, the run, its
connections and what it wrote, each written as it happens."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.agent.approval import Approval
from studio.agent.events import ChatNotice, ToolWrites
from studio.agent.run import RunResult
from studio.policy import AuditError, AuditLog, Decision


class AuditTrail:
    """The audit lines of one tool run; a log that cannot be written becomes one notice, not a crash."""

    def __init__(
        self, audit: AuditLog | None, command: str, cwd: Path, workspace: Path, skill: str
    ) -> None:
        self.audit = audit
        self.command, self.cwd, self.workspace, self.skill = command, cwd, workspace, skill
        self._failures: list[str] = []

    def _write(self, write: Callable[[AuditLog], object]) -> None:
        if self.audit is None:
            return
        try:
            write(self.audit)
        except AuditError as exc:
            self._failures.append(str(exc))

    def notices(self) -> list[ChatNotice]:
        failures, self._failures = self._failures, []
        return [ChatNotice(f"{failure}; the run was not logged") for failure in failures[:1]]

    def decision(self, decision: Decision) -> None:
        self._write(lambda log: log.record_decision(
            self.command, self.cwd, decision, workspace=self.workspace, skill=self.skill))

    def approval(self, approval: Approval) -> None:
        self._write(lambda log: log.record_approval(
            self.command, self.cwd, approved=approval.approved, approved_by=approval.by,
            how=approval.choice, reason=approval.reason, workspace=self.workspace,
            skill=self.skill))

    def run(self, result: RunResult, approved_by: str, how: str) -> None:
        self._write(lambda log: log.record_run(
            self.command, self.cwd, exit_code=result.exit_code, duration_s=result.duration,
            approved_by=approved_by, how=how, workspace=self.workspace, skill=self.skill,
            timed_out=result.timed_out))

    def connection(self, host: str, port: int, allowed: bool) -> None:
        self._write(lambda log: log.record_connection(
            self.command, self.cwd, host=host, port=port, allowed=allowed,
            workspace=self.workspace, skill=self.skill))

    def writes(self, writes: ToolWrites) -> None:
        record = {
            "created": list(writes.created), "changed": list(writes.changed),
            "deleted": list(writes.deleted), "complete": writes.complete,
            "held": [{"path": item.path, "kind": item.kind, "reason": item.reason}
                     for item in writes.held],
            "root": writes.root,
        }  # fmt: skip
        if writes.hold_id is not None:
            record["hold_id"] = writes.hold_id
        if writes.omitted:
            record["omitted"] = writes.omitted
        if writes.problems:
            record["problems"] = list(writes.problems)
        self._write(lambda log: log.record_writes(self.command, self.cwd, record,
                                                  workspace=self.workspace, skill=self.skill))

    def cancelled_run(self, approved_by: str, how: str) -> None:
        self._write(lambda log: log.record_run(
            self.command, self.cwd, exit_code=None, duration_s=0.0, approved_by=approved_by,
            how=how, workspace=self.workspace, skill=self.skill, cancelled=True))

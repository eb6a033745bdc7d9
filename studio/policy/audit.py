"""The audit log: one JSON object per line for every decision, approval and run, appended to
`data_dir()/audit.jsonl`. Reading skips lines that are not valid entries instead of failing."""

from __future__ import annotations

import json
import os
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.errors import StudioError
from studio.fsutil import json_text
from studio.paths import data_dir
from studio.policy.decision import Decision

AUDIT_FILE = "audit.jsonl"


class AuditError(StudioError):
    """The audit log cannot be written; the message names the file and the reason."""


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One line of the log.

    Attributes:
        event: "decision" (the policy judged a tool call), "check" (`studio policy check`),
            "approval" (someone answered an ask), "run" (the command ran), "connection" (a
            run asked the network proxy for a host; `extra` holds host and port), "writes"
            (what a run created, changed, deleted and held back; `extra` holds the lists) or
            "held" (the user kept or discarded held files: `how` is "keep" or "discard").
        approved_by: who let it run or stopped it: "policy", "grant", "user", "auto-approve"...
        how: how it was decided: "allow", "block", "once", "always", "deny", "granted"...
    """

    event: str
    command: str
    cwd: str
    timestamp: str = ""
    decision: str | None = None
    reasons: tuple[str, ...] = ()
    warnings: tuple[tuple[str, str], ...] = ()
    workspace: str | None = None
    skill: str | None = None
    approved_by: str | None = None
    how: str | None = None
    exit_code: int | None = None
    duration_s: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def writes_outcome(self) -> str:
        """A "writes" entry in a few words: "created 2, changed 1, held 3 (incomplete)";
        "" for another event."""
        if self.event != "writes":
            return ""
        counts = [f"{what} {len(paths)}" for what in ("created", "changed", "deleted", "held")
                  if isinstance(paths := self.extra.get(what), list) and paths]
        said = ", ".join(counts) or "nothing listed"
        return said + (" (incomplete)" if self.extra.get("complete") is False else "")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "timestamp": self.timestamp or _now(),
            "event": self.event,
            "command": self.command,
            "cwd": self.cwd,
            "decision": self.decision,
            "reasons": list(self.reasons),
            "warnings": [{"kind": kind, "message": message} for kind, message in self.warnings],
        }
        optional = {
            "workspace": self.workspace,
            "skill": self.skill,
            "approved_by": self.approved_by,
            "how": self.how,
            "exit_code": self.exit_code,
            "duration_s": self.duration_s,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        data.update(self.extra)
        return data

    @classmethod
    def from_json(cls, data: object) -> AuditEntry | None:
        """The entry a parsed line holds, or None when it is not one."""
        if not isinstance(data, dict):
            return None
        event, command, cwd = data.get("event"), data.get("command"), data.get("cwd")
        if not (isinstance(event, str) and isinstance(command, str) and isinstance(cwd, str)):
            return None
        known = {
            "timestamp",
            "event",
            "command",
            "cwd",
            "decision",
            "reasons",
            "warnings",
            "workspace",
            "skill",
            "approved_by",
            "how",
            "exit_code",
            "duration_s",
        }
        reasons = data.get("reasons")
        warnings = data.get("warnings")
        exit_code = data.get("exit_code")
        duration = data.get("duration_s")
        return cls(
            event,
            command,
            cwd,
            str(data.get("timestamp") or ""),
            _text(data.get("decision")),
            tuple(str(r) for r in reasons) if isinstance(reasons, list) else (),
            tuple(
                (str(w.get("kind", "")), str(w.get("message", ""))) for w in warnings if isinstance(w, dict)
            )
            if isinstance(warnings, list)
            else (),
            _text(data.get("workspace")),
            _text(data.get("skill")),
            _text(data.get("approved_by")),
            _text(data.get("how")),
            exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None,
            float(duration) if isinstance(duration, int | float) and not isinstance(duration, bool) else None,
            {key: value for key, value in data.items() if key not in known},
        )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def default_path() -> Path:
    return data_dir() / AUDIT_FILE


class AuditLog:
    """Appends entries to a JSON-lines file; `path` None means `data_dir()/audit.jsonl`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.skipped = 0
        self._lock = threading.Lock()

    def append(self, entry: AuditEntry) -> AuditEntry:
        # Bytes that are not UTF-8 (a command line's, a model's) as escapes: never a crash.
        data = (json_text(entry.to_json()) + "\n").encode("utf-8")
        with self._lock:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # One write on an O_APPEND descriptor: concurrent writers never interleave a line.
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    os.write(fd, data)
                finally:
                    os.close(fd)
            except OSError as exc:
                raise AuditError(
                    f"cannot append to the audit log {self.path}: {exc.strerror or exc}"
                ) from exc
        return entry

    def record_decision(
        self,
        command: str,
        cwd: Path,
        decision: Decision,
        *,
        event: str = "decision",
        workspace: Path | None = None,
        skill: str | None = None,
    ) -> AuditEntry:
        """The policy's verdict on a command, before anyone is asked."""
        how = decision.verdict
        return self.append(
            AuditEntry(
                event,
                command,
                str(cwd),
                _now(),
                decision.verdict,
                decision.reasons,
                decision.warning_pairs(),
                _opt(workspace),
                skill,
                "policy" if decision.verdict != "ask" else None,
                how,
            )
        )

    def record_approval(
        self,
        command: str,
        cwd: Path,
        *,
        approved: bool,
        approved_by: str,
        how: str,
        reason: str | None = None,
        workspace: Path | None = None,
        skill: str | None = None,
    ) -> AuditEntry:
        """Someone's answer to an `ask`: who, and how ("once", "always", "deny", "granted")."""
        extra: dict[str, Any] = {"approved": approved}
        if reason:
            extra["reason"] = reason
        return self.append(
            AuditEntry(
                "approval",
                command,
                str(cwd),
                _now(),
                "allow" if approved else "deny",
                workspace=_opt(workspace),
                skill=skill,
                approved_by=approved_by,
                how=how,
                extra=extra,
            )
        )

    def record_run(
        self,
        command: str,
        cwd: Path,
        *,
        exit_code: int | None,
        duration_s: float,
        approved_by: str,
        how: str,
        workspace: Path | None = None,
        skill: str | None = None,
        timed_out: bool = False,
        cancelled: bool = False,
    ) -> AuditEntry:
        """A finished run: its exit code (None when it was killed) and how long it took."""
        extra: dict[str, Any] = {}
        if timed_out:
            extra["timed_out"] = True
        if cancelled:
            extra["cancelled"] = True
        return self.append(
            AuditEntry(
                "run",
                command,
                str(cwd),
                _now(),
                workspace=_opt(workspace),
                skill=skill,
                approved_by=approved_by,
                how=how,
                exit_code=exit_code,
                duration_s=round(duration_s, 3),
                extra=extra,
            )
        )

    def record_connection(
        self,
        command: str,
        cwd: Path,
        *,
        host: str,
        port: int,
        allowed: bool,
        workspace: Path | None = None,
        skill: str | None = None,
    ) -> AuditEntry:
        """A connection a sandboxed run asked the studio's network proxy for, let through
        (`allow`) or refused (`deny`) by the hosts granted to the run."""
        return self.append(
            AuditEntry(
                "connection",
                command,
                str(cwd),
                _now(),
                "allow" if allowed else "deny",
                workspace=_opt(workspace),
                skill=skill,
                approved_by="grant" if allowed else "policy",
                how="host" if allowed else "ungranted host",
                extra={"host": host, "port": port},
            )
        )

    def record_writes(
        self,
        command: str,
        cwd: Path,
        writes: dict[str, Any],
        *,
        workspace: Path | None = None,
        skill: str | None = None,
    ) -> AuditEntry:
        """What a run wrote: `writes` holds its lists (created, changed, deleted, held, ...)."""
        return self.append(
            AuditEntry("writes", command, str(cwd), _now(), workspace=_opt(workspace), skill=skill,
                       extra=dict(writes))
        )

    def record_held(
        self,
        command: str,
        cwd: str,
        *,
        hold_id: str,
        keep: bool,
        paths: list[str],
        problems: list[str],
        skill: str | None = None,
    ) -> AuditEntry:
        """The user's word on held files: kept (moved into place, `paths`) or discarded."""
        extra: dict[str, Any] = {"hold_id": hold_id, "paths": paths}
        if problems:
            extra["problems"] = problems
        return self.append(
            AuditEntry("held", command, cwd, _now(), "allow" if keep else "deny", skill=skill,
                       approved_by="user", how="keep" if keep else "discard", extra=extra)
        )

    def entries(self) -> Iterator[AuditEntry]:
        """Every readable entry, oldest first; corrupt lines are counted in `skipped`."""
        self.skipped = 0
        try:
            with open(self.path, "rb") as handle:
                lines = list(handle)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise AuditError(f"cannot read the audit log {self.path}: {exc.strerror or exc}") from exc
        for raw in lines:
            try:
                entry = AuditEntry.from_json(json.loads(raw.decode("utf-8")))
            except (UnicodeDecodeError, ValueError):
                entry = None
            if entry is None:
                if raw.strip():
                    self.skipped += 1
                continue
            yield entry

    def tail(self, count: int) -> list[AuditEntry]:
        return list(deque(self.entries(), maxlen=count))


def _opt(path: Path | None) -> str | None:
    return str(path) if path is not None else None

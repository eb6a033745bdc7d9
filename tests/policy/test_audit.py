"""The audit log: every decision, approval and run as one JSON line; corrupt lines are skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.policy import AuditEntry, AuditLog, judge
from studio.policy.audit import AuditError
from tests.policy.world import World


def test_decisions_approvals_and_runs_are_appended_as_json_lines(world: World, tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "logs" / "audit.jsonl")
    command = "python3 scripts/extract.py /etc/hosts"
    decision = judge(command, world.context)
    log.record_decision(command, world.workspace, decision, workspace=world.workspace, skill="project")
    log.record_approval(command, world.workspace, approved=True, approved_by="user", how="once")
    log.record_run(command, world.workspace, exit_code=3, duration_s=1.23456, approved_by="user", how="once")
    lines = log.path.read_text().splitlines()
    assert len(lines) == 3
    first, second, third = (json.loads(line) for line in lines)
    assert first["event"] == "decision" and first["decision"] == "ask"
    assert first["command"] == command and first["cwd"] == str(world.workspace)
    assert first["skill"] == "project" and first["timestamp"]
    assert any(w["kind"] == "outside" for w in first["warnings"]) and first["reasons"]
    assert second["event"] == "approval" and second["approved_by"] == "user" and second["how"] == "once"
    assert second["approved"] is True
    assert third["event"] == "run" and third["exit_code"] == 3 and third["duration_s"] == 1.235


def test_blocked_decisions_say_the_policy_decided(world: World, tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    entry = log.record_decision("rm -rf /", world.workspace, judge("rm -rf /", world.context))
    assert entry.approved_by == "policy" and entry.how == "block"
    assert entry.reasons[0].startswith("blocked: ")


def test_reading_skips_corrupt_lines(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    log.append(AuditEntry("run", "ls", "/w", exit_code=0, duration_s=0.1, extra={"pid": 7}))
    with open(log.path, "ab") as handle:
        handle.write(b'{not json\n\xff\xfe\n[1, 2]\n{"event": "run"}\n\n')
    log.append(AuditEntry("decision", "pwd", "/w", decision="allow"))
    entries = list(log.entries())
    assert [e.command for e in entries] == ["ls", "pwd"]
    assert entries[0].extra == {"pid": 7} and entries[0].exit_code == 0
    assert log.skipped == 4
    assert [e.command for e in log.tail(1)] == ["pwd"]


def test_a_missing_log_reads_as_empty(tmp_path: Path) -> None:
    assert list(AuditLog(tmp_path / "none.jsonl").entries()) == []


def test_the_default_log_is_in_the_data_folder(scratch_home: Path) -> None:
    log = AuditLog()
    log.append(AuditEntry("run", "ls", "/w"))
    assert log.path == scratch_home / "studio-data" / "audit.jsonl"
    assert log.path.exists()


def test_an_unwritable_log_raises_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    log = AuditLog(blocker / "audit.jsonl")
    with pytest.raises(AuditError, match="cannot append to the audit log"):
        log.append(AuditEntry("run", "ls", "/w"))

"""A skill's `allowed-tools` is part of the policy's decision, and the audit log records that one
decision: a command outside them is a block, never an "ask" the executor then refuses."""

from __future__ import annotations

from pathlib import Path

from studio.agent.approval import Approval, ApprovalRequest
from studio.agent.events import ToolFinished
from studio.agent.execute import ToolExecutor
from studio.agent.tools import SkillToolbox
from studio.llm import ToolCall
from studio.policy import AuditLog, Grants, PolicyContext, judge
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.policy.world import World
from tests.skills.helpers import frontmatter, write_skill


def _limited(world: World, *patterns: str) -> PolicyContext:
    return PolicyContext(world.workspace, world.workspace, world.home, "demo", patterns)


def test_a_command_outside_allowed_tools_is_the_policys_block(world: World) -> None:
    decision = judge("ls -la", _limited(world, "Bash(python3:*)", "Read"))
    assert decision.verdict == "block"
    assert [b.kind for b in decision.blockers] == ["allowed-tools"]
    assert "Bash(python3:*)" in decision.reasons[0] and "`ls -la`" in decision.reasons[0]
    assert decision.grant is None


def test_allowed_tools_do_not_lift_the_policys_own_verdict(world: World) -> None:
    context = _limited(world, "Bash(python3:*)")
    assert judge("python3 scripts/extract.py", context).verdict == "ask"
    blocked = judge("python3 scripts/extract.py && rm -rf ~", context)
    assert {b.kind for b in blocked.blockers} == {"destructive", "allowed-tools"}


def test_every_part_must_be_allowed(world: World) -> None:
    decision = judge("python3 scripts/extract.py; cat README.md", _limited(world, "Bash(python3:*)"))
    assert decision.verdict == "block" and "`cat README.md`" in decision.reasons[-1]


def test_bash_alone_and_no_field_allow_every_command(world: World) -> None:
    assert judge("ls -la", _limited(world, "Bash")).verdict == "allow"
    assert judge("ls -la", world.context).verdict == "allow"


def test_without_bash_no_command_runs(world: World) -> None:
    decision = judge("ls", _limited(world, "Read"))
    assert decision.verdict == "block" and "no shell commands" in decision.reasons[0]


class _NeverAsked:
    def __init__(self) -> None:
        self.requests: list[ApprovalRequest] = []

    async def approve(self, request: ApprovalRequest) -> Approval:
        self.requests.append(request)
        raise AssertionError("a command allowed-tools forbids must not reach the approver")


async def test_the_audit_log_records_the_allowed_tools_block(tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    write_skill(
        workspace / "skills",
        "demo",
        frontmatter("demo", extra="allowed-tools: Bash(python3:*) Read\n"),
        {"references/notes.md": "notes"},
    )
    skills = scan_root(SkillRoot(workspace / "skills")).skills
    audit = AuditLog(tmp_path / "audit.jsonl")
    approver = _NeverAsked()
    executor = ToolExecutor(
        SkillToolbox(skills, workspace), approver, Grants(tmp_path / "grants.yaml"), audit,
        home=tmp_path / "home",
    )
    call = ToolCall("1", "run_skill_script", {"skill": "demo", "command": "ls -la"})
    events = [event async for event in executor.execute(call)]
    [finished] = [e for e in events if isinstance(e, ToolFinished)]
    assert finished.status == "blocked" and "allowed-tools" in finished.result
    [entry] = list(audit.entries())
    assert entry.event == "decision" and entry.decision == "block"
    assert any("allowed-tools" in reason for reason in entry.reasons)
    assert approver.requests == []

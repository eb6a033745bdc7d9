"""Asking someone whether a tool run may go ahead: the `Approver` protocol and the approvers that
need no window (automatic, deny-all, and nobody-there)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, Protocol

Choice = Literal["once", "always", "deny"]


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """What an approver is shown: the exact command, where it runs, and why the policy asks.

    Attributes:
        warnings: (kind, message) pairs; kind is the policy's (e.g. "outside", "network").
        grant_scope: what "always allow" would grant, in words, or None when it cannot be granted.
        sandbox: what the sandbox lets the command do ("writes only in ...; no network"), or
            the warning that there is no sandbox here.
        network_choice: whether "Allow network for this run" is offered (the sandbox would
            otherwise cut the network off).
        preview: for a skill the model drafted, the new skill's files or a diff of the change.
        forks: the skills whose forks asked, outermost first; empty when the chat itself asks.
        hosts: the hosts the command names (its URLs), offered for "Allow network to these
            hosts"; the run's sandbox reaches them through the studio's proxy.
        unsandboxed: why the command would run without a sandbox, when it would ("" when it
            runs in one, or nothing runs).
    """

    tool: str
    skill: str
    command: str
    cwd: Path
    workspace: Path
    reasons: tuple[str, ...]
    warnings: tuple[tuple[str, str], ...]
    grant_scope: str | None
    sandbox: str = ""
    network_choice: bool = False
    preview: str = ""
    forks: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()
    unsandboxed: str = ""


@dataclass(frozen=True, slots=True)
class Approval:
    """An approver's answer.

    Attributes:
        remember: keep an "always" grant after the session.
        network: let this one run use the network; never part of a grant.
        hosts: let this run reach these hosts (`*`: any) through the studio's proxy.
        remember_hosts: keep `hosts` granted to the workspace's runs (in the grants file).
    """

    choice: Choice
    by: str
    reason: str | None = None
    remember: bool = False
    network: bool = False
    hosts: tuple[str, ...] = ()
    remember_hosts: bool = False

    @property
    def approved(self) -> bool:
        return self.choice != "deny"


class Approver(Protocol):
    async def approve(self, request: ApprovalRequest) -> Approval: ...


class ForkApprover:
    """Asks `approver` on behalf of the fork running `skill`, so that the question says where it
    comes from (a fork of a fork adds its skill after this one's)."""

    def __init__(self, approver: Approver, skill: str) -> None:
        self.approver = approver
        self.skill = skill

    async def approve(self, request: ApprovalRequest) -> Approval:
        return await self.approver.approve(replace(request, forks=(self.skill, *request.forks)))


class AutoApprover:
    """Approves what the policy marks `ask` (`--auto-approve`), never with network; `block`
    never reaches it. Nothing runs without a sandbox unless `unsandboxed` says so
    (`--unsandboxed`, or the setting `sandbox.allow_unsandboxed`): no one reads what it is
    about to let loose.

    Attributes:
        unsandboxed: approve commands that would run without a sandbox too.
    """

    def __init__(self, unsandboxed: bool = False) -> None:
        self.unsandboxed = unsandboxed

    async def approve(self, request: ApprovalRequest) -> Approval:
        if not request.unsandboxed:
            return Approval("once", by="auto-approve")
        if self.unsandboxed:
            return Approval("once", by="auto-approve",
                            reason=f"runs without a sandbox ({request.unsandboxed})")
        return Approval("deny", by="auto-approve", reason=(
            f"there is no sandbox ({request.unsandboxed}), and --auto-approve runs nothing "
            "without one; pass --unsandboxed (or set `sandbox.allow_unsandboxed: true`) to run "
            "such commands anyway"))


class DenyAllApprover:
    """Denies every request (`--deny-all`)."""

    async def approve(self, request: ApprovalRequest) -> Approval:
        return Approval("deny", by="deny-all", reason="the user runs with --deny-all")


class NobodyApprover:
    """Denies because no one is there to ask: no terminal and no flag."""

    async def approve(self, request: ApprovalRequest) -> Approval:
        return Approval(
            "deny",
            by="nobody",
            reason="no one was there to approve it (no terminal); rerun with --auto-approve "
            "to allow commands that need approval",
        )
